/**
 * Route entries of the Reports screens (issue 17), loaded on first use; the chart code is a further
 * lazy chunk of the report screen. The service worker precaches every chunk, so they open offline.
 */
import { lazy, Suspense } from 'react'
import { Loading } from '../../components/Loading'
import type { ScreenProps } from '../../routing/table'
import { WithAccess } from '../../session/NoAccess'

const List = lazy(async () => ({ default: (await import('./ReportsScreen')).ReportsScreen }))
const One = lazy(async () => ({ default: (await import('./ReportScreen')).ReportScreen }))

export function ReportsRoute(_props: ScreenProps) {
  return (
    <Suspense fallback={<Loading />}>
      <List />
    </Suspense>
  )
}

/** Without reports/{id}:r the mirror has no such report: say why, not "deleted" (issue 36). */
export function ReportRoute({ params }: ScreenProps) {
  const id = params.id ?? ''
  return (
    <WithAccess section={`Report ${id}`} needed={`reports/${id}:r`}>
      <Suspense fallback={<Loading />}>
        <One key={id} id={id} />
      </Suspense>
    </WithAccess>
  )
}
