/** The Groups section (Authentication): the list and one group's permissions and members. */
import { UsersRound } from 'lucide-react'
import { defineSection } from '../../routing/section'

export const section = defineSection({
  routes: [
    {
      pattern: '/groups',
      title: 'Groups',
      auth: 'required',
      screen: 'groups',
      load: async () => (await import('./GroupsScreen')).GroupsScreen,
    },
    {
      pattern: '/groups/:id',
      title: 'Group',
      auth: 'required',
      screen: 'group',
      load: async () => (await import('./GroupScreen')).GroupScreen,
    },
  ],
  menu: [
    {
      key: 'groups',
      title: 'Groups',
      icon: UsersRound,
      href: '/groups',
      needs: ['groups'],
      group: 'authentication',
      order: 1,
    },
  ],
})
