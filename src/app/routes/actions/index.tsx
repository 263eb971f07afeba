/** The Actions section: the list and one action's console (script, runs, schedule). */
import { Zap } from 'lucide-react'
import { defineSection } from '../../routing/section'

export const section = defineSection({
  routes: [
    {
      pattern: '/actions',
      title: 'Actions',
      auth: 'required',
      screen: 'actions',
      load: async () => (await import('./ActionsScreen')).ActionsScreen,
    },
    {
      pattern: '/actions/:id',
      title: 'Action',
      auth: 'required',
      screen: 'action',
      load: async () => (await import('./ActionScreen')).ActionScreen,
    },
  ],
  menu: [{ key: 'actions', title: 'Actions', icon: Zap, href: '/actions', needs: ['actions'], order: 10 }],
})
