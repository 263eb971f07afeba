/**
 * Banners for the states where local changes are at risk or waiting: the device storage is full, the
 * local database is reconnecting or lost, the engine could not start, and a session that expired while
 * changes were queued (shown on the login page too, so the user knows logging in again sends them).
 */
import { DatabaseZap, HardDrive, LogIn, TriangleAlert } from 'lucide-react'
import type { ReactNode } from 'react'
import { SYNC_UI_TEXT } from '../../shared/texts'
import { useEngine, useSyncStatus } from '../data/sync-context'
import { useSession } from '../session/use-session'
import './sync-ui.css'

interface Banner {
  key: string
  tone: 'error' | 'warning' | 'info'
  icon: ReactNode
  text: string
}

export function SyncBanners() {
  const status = useSyncStatus()
  const engine = useEngine()
  const session = useSession()
  const t = SYNC_UI_TEXT
  const banners: Banner[] = []
  if (engine.failure)
    banners.push({
      key: 'engine',
      tone: 'error',
      icon: <DatabaseZap size={18} />,
      text: t.engineFailed(engine.failure),
    })
  if (engine.ready && status.storage === 'full')
    banners.push({ key: 'full', tone: 'error', icon: <HardDrive size={18} />, text: t.storageFull })
  if (engine.ready && status.storage === 'reconnecting')
    banners.push({
      key: 'reconnecting',
      tone: 'info',
      icon: <DatabaseZap size={18} />,
      text: t.storageReconnecting,
    })
  if (engine.ready && status.storage === 'failed')
    banners.push({ key: 'failed', tone: 'error', icon: <TriangleAlert size={18} />, text: t.storageFailed })
  const queued = status.pending + status.conflicts
  if (engine.ready && session.status !== 'authenticated' && queued > 0)
    banners.push({
      key: 'expired',
      tone: 'warning',
      icon: <LogIn size={18} />,
      text: t.sessionExpiredKept(queued),
    })
  if (banners.length === 0) return null
  return (
    <div className="mc-sync-banners">
      {banners.map((b) => (
        <div
          key={b.key}
          className="mc-sync-banner"
          data-tone={b.tone}
          data-testid={`sync-banner-${b.key}`}
          role={b.tone === 'error' ? 'alert' : 'status'}
        >
          <span aria-hidden="true">{b.icon}</span>
          <span>{b.text}</span>
        </div>
      ))}
    </div>
  )
}
