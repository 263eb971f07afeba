/** The file browser over its two roots: Storage (/storage, no login for public files) and Web Server (/static). */
import { Globe, HardDrive } from 'lucide-react'
import type { StorageRoot } from '../../../shared/storage'
import { defineSection } from '../../routing/section'

const browser = (root: StorageRoot) => async () => {
  const { StorageScreen } = await import('./StorageScreen')
  return function Browser({ title, params }: { title: string; params: Record<string, string> }) {
    return <StorageScreen root={root} title={title} rest={params.rest ?? ''} />
  }
}

export const section = defineSection({
  routes: [
    {
      pattern: '/static/*?',
      title: 'Web Server',
      auth: 'required',
      screen: 'static',
      load: browser('static'),
    },
    { pattern: '/storage/*?', title: 'Storage', screen: 'storage', load: browser('storage') },
  ],
  menu: [
    { key: 'storage', title: 'Storage', icon: HardDrive, href: '/storage', needs: ['storage'], order: 70 },
    { key: 'webServer', title: 'Web Server', icon: Globe, href: '/static', needs: ['static'], order: 90 },
  ],
})
