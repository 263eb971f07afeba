/**
 * The Users section (Authentication): the list (API tokens are a tab of it) and one user. Loaded on
 * first use, so the QR library and editors stay out of the shell's initial JavaScript.
 */
import { User } from 'lucide-react'
import { defineSection } from '../../routing/section'

export const section = defineSection({
  routes: [
    {
      pattern: '/users',
      title: 'Users',
      auth: 'required',
      screen: 'users',
      load: async () => (await import('./UsersScreen')).UsersScreen,
    },
    {
      pattern: '/users/:id',
      title: 'User',
      auth: 'required',
      screen: 'user',
      load: async () => (await import('./UserScreen')).UserScreen,
    },
  ],
  menu: [
    {
      key: 'users',
      title: 'Users',
      icon: User,
      href: '/users',
      needs: ['users'],
      group: 'authentication',
      order: 2,
    },
  ],
})
