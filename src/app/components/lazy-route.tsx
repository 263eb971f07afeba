/**
 * A route screen loaded on first use, behind the inline "Loading…" spinner: what each section's
 * index.tsx needs to keep its libraries (editors, charts, parsers) out of the shell's initial
 * JavaScript. `lazyRoute(() => import('./XScreen').then((m) => m.XScreen))`.
 */
import { type ComponentType, lazy, Suspense } from 'react'
import type { ScreenProps } from '../routing/table'
import { Loading } from './Loading'

export function lazyRoute(load: () => Promise<ComponentType<ScreenProps>>): ComponentType<ScreenProps> {
  const Screen = lazy(async () => ({ default: await load() }))
  return function LazyRoute(props: ScreenProps) {
    return (
      <Suspense fallback={<Loading />}>
        <Screen {...props} />
      </Suspense>
    )
  }
}
