/**
 * Route screen ids (routes/table.ts) → components. A screen another issue has not built yet falls back
 * to ComingSoon; when it is built, add one line here.
 */
import type { ComponentType } from 'react'
import { CheckoutRoute } from './checkout' // hosted checkout
import { DatabaseRoute, DataEditorRoute } from './data' // screens: database
import { DiscountRoute, DiscountsRoute } from './discounts' // payments console
import { DownloadRoute } from './download' // screens: share-link download
import { Home } from './home/Home'
import { LoginPage } from './login/LoginPage'
import { ClientLogsRoute, ServerLogsRoute } from './logs' // screens: logs
import { MessagesRoute } from './messages' // messages console
import { NotFound } from './not-found/NotFound'
import { ComingSoon } from './placeholder/ComingSoon'
import { ProductRoute, ProductsRoute } from './products' // payments console
import { SettingsRoute } from './settings' // screens: settings
import { StaticRoute, StorageRoute } from './storage' // file browser
import { TemplateRoute, TemplatesRoute } from './templates' // screens: templates
import { GroupRoute, GroupsRoute, UserRoute, UsersRoute } from './users' // auth screens

export interface ScreenProps {
  /** The route's display title. */
  title: string
  params: Record<string, string>
}

const SCREENS: Record<string, ComponentType<ScreenProps>> = {
  home: Home,
  login: LoginPage,
  'not-found': NotFound,
  data: DatabaseRoute, // screens: database
  download: DownloadRoute, // screens: share-link download
  checkout: CheckoutRoute, // hosted checkout
  'data-editor': DataEditorRoute, // screens: database
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
  discounts: DiscountsRoute, // payments console
  discount: DiscountRoute, // payments console
  products: ProductsRoute, // payments console
  product: ProductRoute, // payments console
}

export function screenFor(id: string): ComponentType<ScreenProps> {
  return SCREENS[id] ?? ComingSoon
}
