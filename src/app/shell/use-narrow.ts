/** True under the SPEC §9 narrow breakpoint (576 px), where the sidebar becomes an overlay drawer. */
import { useSyncExternalStore } from 'react'
import { NARROW_MEDIA_QUERY as QUERY } from '../../shared/constants'

function subscribe(onChange: () => void): () => void {
  const mql = window.matchMedia(QUERY)
  mql.addEventListener('change', onChange)
  return () => mql.removeEventListener('change', onChange)
}

export function useNarrow(): boolean {
  return useSyncExternalStore(subscribe, () => window.matchMedia(QUERY).matches)
}
