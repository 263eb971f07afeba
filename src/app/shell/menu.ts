/**
 * The sidebar (SPEC §2 "Sidebar, in order") as data, and the permission filter (SPEC §6 "Menu
 * visibility by permission key", keys in src/shared/menu-permissions.ts). Icons are lucide-react
 * components: inline SVG, bundled, no icon font to download.
 */
import {
  ChartColumn,
  ChartLine,
  ClipboardList,
  CreditCard,
  Database,
  Globe,
  HardDrive,
  LayoutTemplate,
  type LucideIcon,
  MessageSquare,
  Monitor,
  Receipt,
  ScrollText,
  Server,
  Settings,
  ShieldCheck,
  Sparkles,
  Table2,
  Tag,
  User,
  UsersRound,
  Zap,
} from 'lucide-react'
import { MENU_PERMISSIONS, type MenuKey } from '../../shared/menu-permissions'
import { can } from '../../shared/permissions'

export interface MenuItem {
  key: MenuKey
  title: string
  icon: LucideIcon
  /** A link; absent for parents and for the assistant (which opens a popup). */
  href?: string
  /** 'assistant': opens the AI chat instead of navigating. */
  action?: 'assistant'
  children?: MenuItem[]
  hidden?: boolean
}

export const MENU: readonly MenuItem[] = [
  { key: 'assistant', title: 'AI Assistant', icon: Sparkles, action: 'assistant' },
  { key: 'actions', title: 'Actions', icon: Zap, href: '/actions' },
  {
    key: 'analytics',
    title: 'Analytics',
    icon: ChartLine,
    children: [
      { key: 'analyticsPages', title: 'Pages', icon: ChartColumn, href: '/analytics/pages' },
      { key: 'analyticsUsers', title: 'Users', icon: User, href: '/analytics/users' },
    ],
  },
  {
    key: 'authentication',
    title: 'Authentication',
    icon: ShieldCheck,
    children: [
      { key: 'groups', title: 'Groups', icon: UsersRound, href: '/groups' },
      { key: 'users', title: 'Users', icon: User, href: '/users' },
    ],
  },
  {
    key: 'data',
    title: 'Data',
    icon: Database,
    children: [
      { key: 'database', title: 'Database', icon: Table2, href: '/data' },
      { key: 'forms', title: 'Forms & Reports', icon: ClipboardList, href: '/forms' },
    ],
  },
  { key: 'messages', title: 'Messages', icon: MessageSquare, href: '/messages' },
  {
    key: 'payments',
    title: 'Payments',
    icon: CreditCard,
    children: [
      { key: 'discounts', title: 'Discount Codes', icon: Tag, href: '/discounts' },
      { key: 'transactions', title: 'Transactions', icon: Receipt, href: '/payments' },
    ],
  },
  { key: 'storage', title: 'Storage', icon: HardDrive, href: '/storage' },
  { key: 'templates', title: 'Templates', icon: LayoutTemplate, href: '/templates' },
  { key: 'webServer', title: 'Web Server', icon: Globe, href: '/static' },
  {
    key: 'logs',
    title: 'Logs',
    icon: ScrollText,
    children: [
      { key: 'clientLogs', title: 'Client', icon: Monitor, href: '/logs/client' },
      { key: 'serverLogs', title: 'Server', icon: Server, href: '/logs/server' },
    ],
  },
  { key: 'settings', title: 'Settings', icon: Settings, href: '/settings' },
]

export function allowed(permissions: readonly string[], key: MenuKey): boolean {
  return MENU_PERMISSIONS[key].some((req) => can(permissions, req))
}

/**
 * Marks entries hidden by permission. A parent is hidden when its own key fails or when none of its
 * children is visible: an empty group would be a dead end.
 */
export function visibleMenu(permissions: readonly string[], menu: readonly MenuItem[] = MENU): MenuItem[] {
  return menu.map((item) => {
    const children = item.children ? visibleMenu(permissions, item.children) : undefined
    const hidden = !allowed(permissions, item.key) || (!!children && children.every((c) => c.hidden))
    return { ...item, children, hidden }
  })
}

/** Whether a link is the current page or an ancestor of it (for highlighting). */
export function isActive(href: string, path: string): boolean {
  return path === href || path.startsWith(`${href}/`)
}
