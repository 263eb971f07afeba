/**
 * The analytics routes, loaded on first use: chart.js and the dashboards ship in their own chunks and
 * the rest of the console never loads them. Without analytics/summary:r a dashboard says so in the
 * shared words instead of showing the server's 403 (issue 36).
 */

import { lazyRoute } from '../../components/lazy-route'
import type { ScreenProps } from '../../routing/table'
import { WithAccess } from '../../session/NoAccess'

/** What both dashboards read first (src/server/modules/analytics.ts). */
const NEEDED = 'analytics/summary:r'

const Pages = lazyRoute(() => import('./PagesScreen').then((m) => m.PagesScreen))
const Users = lazyRoute(() => import('./UsersScreen').then((m) => m.UsersScreen))

export function AnalyticsPagesRoute(props: ScreenProps) {
  return (
    <WithAccess section={props.title} needed={NEEDED}>
      <Pages {...props} />
    </WithAccess>
  )
}

export function AnalyticsUsersRoute(props: ScreenProps) {
  return (
    <WithAccess section={props.title} needed={NEEDED}>
      <Users {...props} />
    </WithAccess>
  )
}
