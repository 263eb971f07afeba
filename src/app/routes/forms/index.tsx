/** The Forms section: the list, and the editor that is also a form's public page (no login needed). */
import { ClipboardList } from 'lucide-react'
import { defineSection } from '../../routing/section'

export const section = defineSection({
  routes: [
    {
      pattern: '/forms',
      title: 'Forms',
      auth: 'required',
      screen: 'forms',
      load: async () => (await import('./FormsScreen')).FormsScreen,
    },
    {
      pattern: '/forms/*',
      title: 'Forms editor',
      screen: 'forms-editor',
      load: async () => (await import('./FormScreen')).FormScreen,
    },
  ],
  menu: [
    {
      key: 'forms',
      title: 'Forms & Reports',
      icon: ClipboardList,
      href: '/forms',
      needs: ['forms'],
      group: 'data',
      order: 2,
    },
  ],
})
