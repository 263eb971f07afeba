/**
 * Route screen ids (routing/table.ts) → components. A screen another issue has not built yet falls back
 * to ComingSoon; when it is built, add one line here.
 */
import type { ComponentType } from 'react'
import { lazyRoute } from '../components/lazy-route'
import type { ScreenProps } from '../routing/table'
import { ActionRoute, ActionsRoute } from './actions' // actions console
import { AnalyticsPagesRoute, AnalyticsUsersRoute } from './analytics' // analytics dashboards
import { CheckoutRoute } from './checkout' // hosted checkout
import { DatabaseRoute, DataEditorRoute } from './data' // screens: database
import { DownloadRoute } from './download' // screens: share-link download
import { FormRoute, FormsRoute } from './forms' // forms (issue 17)
import { GroupRoute, GroupsRoute } from './groups'
import { LoginPage } from './login/LoginPage'
import { ClientLogsRoute, ServerLogsRoute } from './logs' // screens: logs
import { MessagesRoute } from './messages' // messages console
import { PaymentsRoute, TransactionRoute } from './payments' // payments console: transactions
import { ReportRoute, ReportsRoute } from './reports' // reports (issue 17)
import { SettingsRoute } from './settings' // screens: settings
import { StaticRoute, StorageRoute } from './storage' // file browser
import { TemplateRoute, TemplatesRoute } from './templates' // screens: templates
import { UserRoute, UsersRoute } from './users' // auth screens
import { VideoRoute } from './video' // video calls (issue 18)

// Only the login page is part of the first JavaScript (issue 20, docs/performance.md "7. Bundle"):
// every other screen, these included, is a chunk of its own loaded on first use.
const Home = lazyRoute(async () => (await import('./home/Home')).Home)
const NotFound = lazyRoute(async () => (await import('./not-found/NotFound')).NotFound)
const ComingSoon = lazyRoute(async () => (await import('./placeholder/ComingSoon')).ComingSoon)
const DiscountsRoute = lazyRoute(async () => (await import('./discounts')).DiscountsRoute) // payments console
const DiscountRoute = lazyRoute(async () => (await import('./discounts')).DiscountRoute) // payments console
const ProductsRoute = lazyRoute(async () => (await import('./products')).ProductsRoute) // payments console
const ProductRoute = lazyRoute(async () => (await import('./products')).ProductRoute) // payments console

const SCREENS: Record<string, ComponentType<ScreenProps>> = {
  home: Home,
  'analytics-pages': AnalyticsPagesRoute, // analytics dashboards
  'analytics-users': AnalyticsUsersRoute, // analytics dashboards
  login: LoginPage,
  'not-found': NotFound,
  data: DatabaseRoute, // screens: database
  download: DownloadRoute, // screens: share-link download
  checkout: CheckoutRoute, // hosted checkout
  'data-editor': DataEditorRoute, // screens: database
  forms: FormsRoute, // forms (issue 17)
  'forms-editor': FormRoute, // forms (issue 17)
  reports: ReportsRoute, // reports (issue 17)
  report: ReportRoute, // reports (issue 17)
  'logs-client': ClientLogsRoute, // screens: logs
  'logs-server': ServerLogsRoute, // screens: logs
  settings: SettingsRoute, // screens: settings
  storage: StorageRoute, // file browser
  static: StaticRoute, // file browser
  users: UsersRoute, // auth screens
  user: UserRoute, // auth screens
  groups: GroupsRoute, // auth screens
  messages: MessagesRoute, // messages console
  group: GroupRoute, // auth screens
  templates: TemplatesRoute, // screens: templates
  template: TemplateRoute, // screens: templates
  actions: ActionsRoute, // actions console
  action: ActionRoute, // actions console
  discounts: DiscountsRoute, // payments console
  discount: DiscountRoute, // payments console
  products: ProductsRoute, // payments console
  product: ProductRoute, // payments console
  payments: PaymentsRoute, // payments console: transactions
  transaction: TransactionRoute, // payments console: transactions
  video: VideoRoute, // video calls (issue 18)
}

export function screenFor(id: string): ComponentType<ScreenProps> {
  return SCREENS[id] ?? ComingSoon
}
