/** The share-link download page (no shell, no login: the link's token is the right). */
import { defineSection } from '../../routing/section'

export const section = defineSection({
  routes: [
    {
      pattern: '/download',
      title: 'Download',
      screen: 'download',
      chrome: 'bare',
      load: async () => (await import('./DownloadScreen')).DownloadScreen,
    },
  ],
})
