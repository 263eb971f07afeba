/**
 * Route entries of the Reports screens (issue 17), loaded on first use; the chart code is a further
 * lazy chunk of the report screen. The service worker precaches every chunk, so they open offline.
 */
import { lazy, Suspense } from 'react'
import { Loading } from '../data'
import type { ScreenProps } from '../screens'

const List = lazy(async () => ({ default: (await import('./ReportsScreen')).ReportsScreen }))
const One = lazy(async () => ({ default: (await import('./ReportScreen')).ReportScreen }))

export function ReportsRoute(_props: ScreenProps) {
  return (
    <Suspense fallback={<Loading />}>
      <List />
    </Suspense>
  )
}

export function ReportRoute({ params }: ScreenProps) {
  return (
    <Suspense fallback={<Loading />}>
      <One key={params.id} id={params.id ?? ''} />
    </Suspense>
  )
}
