/** Video calls (issue 18): a room page without the shell; an invitation's link needs no login. */
import { defineSection } from '../../routing/section'

export const section = defineSection({
  routes: [
    {
      pattern: '/video/*?',
      title: 'Video',
      screen: 'video',
      chrome: 'bare',
      load: async () => (await import('./VideoScreen')).VideoScreen,
    },
  ],
})
