/** True under the SPEC §9 narrow breakpoint (576 px), where the sidebar becomes an overlay drawer. */
import { useSyncExternalStore } from 'react'
import { NARROW_BREAKPOINT_PX } from '../../shared/constants'

const QUERY = `(max-width: ${NARROW_BREAKPOINT_PX - 0.02}px)`

function subscribe(onChange: () => void): () => void {
  const mql = window.matchMedia(QUERY)
  mql.addEventListener('change', onChange)
  return () => mql.removeEventListener('change', onChange)
}

export function useNarrow(): boolean {
  return useSyncExternalStore(subscribe, () => window.matchMedia(QUERY).matches)
}
