/** The Logs section: the client and server channels, one screen for both, each behind its own read right. */
import { Monitor, Server } from 'lucide-react'
import { CLIENT_LOG_CHANNEL, SERVER_LOG_CHANNEL } from '../../../shared/constants'
import { defineSection } from '../../routing/section'

const channel = (name: string) => async () => {
  const { LogsScreen } = await import('./LogsScreen')
  return function ChannelLogs({ title }: { title: string }) {
    return <LogsScreen channel={name} title={title} />
  }
}

export const section = defineSection({
  routes: [
    {
      pattern: '/logs/client',
      title: 'Client Logs',
      auth: 'required',
      screen: 'logs-client',
      access: ({ title }) => ({ section: title, needed: `logs/${CLIENT_LOG_CHANNEL}:r` }),
      load: channel(CLIENT_LOG_CHANNEL),
    },
    {
      pattern: '/logs/server',
      title: 'Server Logs',
      auth: 'required',
      screen: 'logs-server',
      access: ({ title }) => ({ section: title, needed: `logs/${SERVER_LOG_CHANNEL}:r` }),
      load: channel(SERVER_LOG_CHANNEL),
    },
  ],
  menu: [
    {
      key: 'clientLogs',
      title: 'Client',
      icon: Monitor,
      href: '/logs/client',
      needs: ['logs:r'],
      group: 'logs',
      order: 1,
    },
    {
      key: 'serverLogs',
      title: 'Server',
      icon: Server,
      href: '/logs/server',
      needs: ['logs/server:r'],
      group: 'logs',
      order: 2,
    },
  ],
})
