/**
 * The toolbar's sync control: online / syncing / reconnecting / offline (the state of the connection
 * indicator beside it, connection-state.ts, so the cloud and the words agree), a badge with the number
 * of changes not yet sent (documents in the outbox, storage writes and uploads in the files queue), a
 * warning mark while the inbox holds conflicts, and a click that opens the Sync panel. Shown only while
 * an engine runs (a logged-in user).
 */
import { Cloud, CloudOff, CloudSync, RefreshCw, TriangleAlert } from 'lucide-react'
import { FEEDBACK_TEXT, SYNC_UI_TEXT } from '../../shared/texts'
import { useEngine } from '../data/sync-context'
import { useQueuedSubmissions } from '../forms/forms-db'
import { useSession } from '../session/use-session'
import { useStorageQueue } from '../storage/queue'
import { connectionState, useSocketState } from './connection-state'
import { syncPanel } from './panel-store'
import { useDisplayStatus } from './use-display-status'
import './sync-ui.css'

const ICONS = { online: Cloud, syncing: RefreshCw, reconnecting: CloudSync, offline: CloudOff }

export function SyncIndicator() {
  const { ready } = useEngine()
  const status = useDisplayStatus()
  // The connection indicator's state (useConnectionState), from the one display-status subscription.
  const network = connectionState(status.network, useSocketState())
  // Storage writes and uploads wait in their own queue (src/app/storage): they are changes not yet sent too.
  const files = useStorageQueue().filter((i) => i.status === 'waiting' || i.status === 'running').length
  // Form submissions wait in the forms queue (src/app/forms): answers not yet sent count as well.
  const forms = useQueuedSubmissions(useSession().user?._id ?? null).filter(
    (s) => s.status === 'waiting',
  ).length
  if (!ready) return null
  const { conflicts } = status
  const pending = status.pending + files + forms
  const Icon = ICONS[network]
  const label = network === 'reconnecting' ? FEEDBACK_TEXT.reconnecting : SYNC_UI_TEXT[network]
  // Online with a queue, the engine is sending it: "Sending · 1841 left", not "Synced · … not yet sent".
  const detail =
    pending === 0
      ? label
      : network === 'offline'
        ? `${label} · ${SYNC_UI_TEXT.pendingBadge(pending)}`
        : SYNC_UI_TEXT.sendingLeft(pending)
  return (
    <button
      type="button"
      className="mc-sync-indicator"
      data-testid="sync-status"
      data-state={network}
      data-pending={pending}
      data-conflicts={conflicts}
      title={`${detail} — ${SYNC_UI_TEXT.openPanel}`}
      aria-label={`${detail}. ${SYNC_UI_TEXT.openPanel}`}
      onClick={() => syncPanel.open()}
    >
      {/* One turn when syncing starts, not a spinner: a 60 fps animation for a whole sync cost the
          initial mirror 4 % of its time on a two-core machine (docs/decisions/sync-ui.md). */}
      <Icon size={18} aria-hidden="true" className={network === 'syncing' ? 'mc-sync-turn' : undefined} />
      {/* The feedback connection indicator beside it already says Online/Offline in words. */}
      <span className="mc-sync-label visually-hidden">{label}</span>
      {pending > 0 && (
        <span className="mc-sync-badge" data-testid="sync-pending-count">
          {pending}
        </span>
      )}
      {conflicts > 0 && <TriangleAlert size={16} aria-hidden="true" className="mc-sync-conflict-mark" />}
    </button>
  )
}
