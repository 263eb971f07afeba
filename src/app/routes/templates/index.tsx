/** Templates (mail, SMS, push, PDF): the list and one template's editor with its preview. */
import { LayoutTemplate } from 'lucide-react'
import { defineSection } from '../../routing/section'

export const section = defineSection({
  routes: [
    {
      pattern: '/templates',
      title: 'Templates',
      auth: 'required',
      screen: 'templates',
      linkedOnly: true,
      load: async () => (await import('./TemplatesScreen')).TemplatesScreen,
    },
    {
      pattern: '/templates/:id',
      title: 'Template',
      auth: 'required',
      screen: 'template',
      linkedOnly: true,
      load: async () => (await import('./TemplateScreen')).TemplateScreen,
    },
  ],
  menu: [
    {
      key: 'templates',
      title: 'Templates',
      icon: LayoutTemplate,
      href: '/templates',
      needs: ['templates'],
      order: 80,
    },
  ],
})
