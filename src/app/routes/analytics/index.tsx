/**
 * The Analytics section: page and user dashboards. Both read analytics/summary:r, checked from the
 * session before the dashboard's chunk (chart.js) loads.
 */
import { ChartColumn, User } from 'lucide-react'
import { defineSection } from '../../routing/section'

const access = ({ title }: { title: string }) => ({ section: title, needed: 'analytics/summary:r' })

export const section = defineSection({
  routes: [
    {
      pattern: '/analytics/users',
      title: 'User Analytics',
      auth: 'required',
      screen: 'analytics-users',
      access,
      load: async () => (await import('./UsersScreen')).UsersScreen,
    },
    {
      pattern: '/analytics/pages',
      title: 'Page Analytics',
      auth: 'required',
      screen: 'analytics-pages',
      linkedOnly: true,
      access,
      load: async () => (await import('./PagesScreen')).PagesScreen,
    },
  ],
  menu: [
    {
      key: 'analyticsPages',
      title: 'Pages',
      icon: ChartColumn,
      href: '/analytics/pages',
      needs: ['analytics'],
      group: 'analytics',
      order: 1,
    },
    {
      key: 'analyticsUsers',
      title: 'Users',
      icon: User,
      href: '/analytics/users',
      needs: ['analytics'],
      group: 'analytics',
      order: 2,
    },
  ],
})
