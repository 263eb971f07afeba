/** The Messages console (email, SMS, push, calls) with its history. */
import { MessageSquare } from 'lucide-react'
import { defineSection } from '../../routing/section'

export const section = defineSection({
  routes: [
    {
      pattern: '/messages',
      title: 'Messages',
      auth: 'required',
      screen: 'messages',
      linkedOnly: true,
      load: async () => (await import('./MessagesScreen')).MessagesScreen,
    },
  ],
  menu: [
    {
      key: 'messages',
      title: 'Messages',
      icon: MessageSquare,
      href: '/messages',
      needs: ['messages'],
      order: 50,
    },
  ],
})
