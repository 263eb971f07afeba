/**
 * Route entries of the log screens, loaded on first use (precached by the service worker). Without
 * logs/{channel}:r the mirror holds no line, so the screen says why instead of "no lines" (issue 36).
 */
import { lazy, Suspense } from 'react'
import { CLIENT_LOG_CHANNEL, SERVER_LOG_CHANNEL } from '../../../shared/constants'
import { Loading } from '../../components/Loading'
import type { ScreenProps } from '../../routing/table'
import { WithAccess } from '../../session/NoAccess'

const Logs = lazy(async () => ({ default: (await import('./LogsScreen')).LogsScreen }))

export function ClientLogsRoute({ title }: ScreenProps) {
  return (
    <WithAccess section={title} needed={`logs/${CLIENT_LOG_CHANNEL}:r`}>
      <Suspense fallback={<Loading />}>
        <Logs channel={CLIENT_LOG_CHANNEL} title={title} />
      </Suspense>
    </WithAccess>
  )
}

export function ServerLogsRoute({ title }: ScreenProps) {
  return (
    <WithAccess section={title} needed={`logs/${SERVER_LOG_CHANNEL}:r`}>
      <Suspense fallback={<Loading />}>
        <Logs channel={SERVER_LOG_CHANNEL} title={title} />
      </Suspense>
    </WithAccess>
  )
}
