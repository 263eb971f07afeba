/** Home ('/'): the greeting and a card per section the user may open (no footer, SPEC §2). */
import { defineSection } from '../../routing/section'

export const section = defineSection({
  routes: [
    {
      pattern: '/',
      title: 'home',
      auth: 'required',
      screen: 'home',
      chrome: 'no-footer',
      load: async () => (await import('./Home')).Home,
    },
  ],
})
