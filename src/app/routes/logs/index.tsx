/** Route entries of the log screens, loaded on first use (precached by the service worker). */
import { lazy, Suspense } from 'react'
import { CLIENT_LOG_CHANNEL, SERVER_LOG_CHANNEL } from '../../../shared/constants'
import { Loading } from '../data'
import type { ScreenProps } from '../screens'

const Logs = lazy(async () => ({ default: (await import('./LogsScreen')).LogsScreen }))

export function ClientLogsRoute({ title }: ScreenProps) {
  return (
    <Suspense fallback={<Loading />}>
      <Logs channel={CLIENT_LOG_CHANNEL} title={title} />
    </Suspense>
  )
}

export function ServerLogsRoute({ title }: ScreenProps) {
  return (
    <Suspense fallback={<Loading />}>
      <Logs channel={SERVER_LOG_CHANNEL} title={title} />
    </Suspense>
  )
}
