/** Route entries of the file browser (/storage/… and /static/…), loaded on first use. */
import { lazy, Suspense } from 'react'
import { Loading } from '../../components/Loading'
import type { ScreenProps } from '../../routing/table'

const Screen = lazy(async () => ({ default: (await import('./StorageScreen')).StorageScreen }))

export function StorageRoute({ title, params }: ScreenProps) {
  return (
    <Suspense fallback={<Loading />}>
      <Screen root="storage" title={title} rest={params.rest ?? ''} />
    </Suspense>
  )
}

export function StaticRoute({ title, params }: ScreenProps) {
  return (
    <Suspense fallback={<Loading />}>
      <Screen root="static" title={title} rest={params.rest ?? ''} />
    </Suspense>
  )
}
