/** Settings: site, PWA, mail, quotas and the other server-wide settings documents. */
import { Settings } from 'lucide-react'
import { defineSection } from '../../routing/section'

export const section = defineSection({
  routes: [
    {
      pattern: '/settings',
      title: 'Settings',
      auth: 'required',
      screen: 'settings',
      load: async () => (await import('./SettingsScreen')).SettingsScreen,
    },
  ],
  menu: [
    {
      key: 'settings',
      title: 'Settings',
      icon: Settings,
      href: '/settings',
      needs: ['settings:u'],
      order: 110,
    },
  ],
})
