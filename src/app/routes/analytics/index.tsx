/**
 * The analytics routes, loaded on first use: chart.js and the dashboards ship in their own chunks and
 * the rest of the console never loads them.
 */
import { lazyRoute } from '../lazy-route'

export const AnalyticsPagesRoute = lazyRoute(() => import('./PagesScreen').then((m) => m.PagesScreen))
export const AnalyticsUsersRoute = lazyRoute(() => import('./UsersScreen').then((m) => m.UsersScreen))
