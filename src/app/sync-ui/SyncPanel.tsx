/**
 * The Sync panel: a side sheet on the native <dialog> (focus trap, Escape and the top layer for free)
 * listing what waits to be sent (the change and the document it concerns as collection/id, age,
 * attempts, last error; not the REST call, which says little to a person) and the inbox of conflicts
 * and refused writes, each opening the conflict view. Both lists are live queries on the page's own
 * connection, so they follow the worker's replay and other tabs' writes without polling.
 */
import { useLiveQuery } from 'dexie-react-hooks'
import { RefreshCw, X } from 'lucide-react'
import { useEffect, useId, useRef, useState } from 'react'
import type { InboxItem, OutboxEntry } from '../../db/types'
import { SYNC_UI_TEXT } from '../../shared/texts'
import { useEngine, useSyncDb } from '../data/sync-context'
import { useSession } from '../session/use-session'
import { retryQueueNow, wireStorageQueue } from '../storage/runner'
import { formatAge } from './age'
import { ConflictView } from './ConflictView'
import { FormsSection } from './FormsSection'
import { syncPanel, useSyncPanel } from './panel-store'
import { UploadsSection } from './UploadsSection'
import './sync-ui.css'

/** Ages in the list are coarse (seconds at best), so a slow tick is enough. */
const AGE_TICK_MS = 5000

export function SyncPanel() {
  const { open, conflict } = useSyncPanel()
  const db = useSyncDb()
  const engine = useEngine()
  const ref = useRef<HTMLDialogElement>(null)
  const titleId = useId()
  const outbox = useLiveQuery(() => (db && open ? db.outbox.orderBy('seq').toArray() : []), [db, open], [])
  const inbox = useLiveQuery(
    () => (db && open ? db.inbox.orderBy('createdAt').toArray() : []),
    [db, open],
    [],
  )
  const now = useNow(open)
  const user = useSession().user?._id ?? null
  // The panel is mounted for the page's whole life: the storage queue's runner starts with it, so a
  // reload resumes queued uploads without visiting the file browser.
  useEffect(() => wireStorageQueue(), [])

  useEffect(() => {
    const dialog = ref.current
    if (!dialog) return
    if (open && !dialog.open) dialog.showModal()
    if (!open && dialog.open) dialog.close()
  }, [open])

  // Logged out while open: nothing left to show.
  useEffect(() => {
    if (!engine.ready && open) syncPanel.close()
  }, [engine.ready, open])

  const item = conflict ? inbox.find((i) => i.mutationId === conflict) : undefined

  return (
    <dialog
      ref={ref}
      className="mc-sync-panel"
      aria-labelledby={titleId}
      data-testid="sync-panel"
      onCancel={(e) => {
        e.preventDefault()
        syncPanel.close()
      }}
    >
      {open && (
        <div className="mc-sync-panel-body">
          <header className="mc-sync-panel-head">
            <h2 id={titleId}>{SYNC_UI_TEXT.panelTitle}</h2>
            <button
              type="button"
              className="mc-button"
              onClick={() => {
                void engine.kick()
                retryQueueNow()
              }}
            >
              <RefreshCw size={16} aria-hidden="true" /> {SYNC_UI_TEXT.retryNow}
            </button>
            <button
              type="button"
              className="icon-button"
              aria-label={SYNC_UI_TEXT.close}
              title={SYNC_UI_TEXT.close}
              onClick={() => syncPanel.close()}
            >
              <X size={18} aria-hidden="true" />
            </button>
          </header>
          {item ? (
            <ConflictView item={item} onDone={() => syncPanel.showConflict(null)} />
          ) : (
            <>
              <InboxList items={inbox} />
              <OutboxTable entries={outbox} now={now} />
              <UploadsSection />
              <FormsSection user={user} now={now} />
            </>
          )}
        </div>
      )}
    </dialog>
  )
}

function InboxList({ items }: { items: readonly InboxItem[] }) {
  return (
    <section aria-label={SYNC_UI_TEXT.inboxTitle} data-testid="sync-inbox">
      <h3>{SYNC_UI_TEXT.inboxTitle}</h3>
      {items.length === 0 ? (
        <p className="muted">{SYNC_UI_TEXT.inboxEmpty}</p>
      ) : (
        <ul className="mc-sync-inbox">
          {items.map((i) => (
            <li key={i.mutationId} data-kind={i.kind}>
              <div>
                <strong>
                  {i.collection}/{i.docId}
                </strong>
                <div className="muted">
                  {SYNC_UI_TEXT.conflictKind[i.kind]} ({i.status}): {i.message}
                </div>
              </div>
              <button
                type="button"
                className="mc-button"
                onClick={() => syncPanel.showConflict(i.mutationId)}
              >
                {SYNC_UI_TEXT.review}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

function OutboxTable({ entries, now }: { entries: readonly OutboxEntry[]; now: number }) {
  const c = SYNC_UI_TEXT.columns
  return (
    <section aria-label={SYNC_UI_TEXT.pendingTitle} data-testid="sync-outbox">
      <h3>{SYNC_UI_TEXT.pendingTitle}</h3>
      {entries.length === 0 ? (
        <p className="muted">{SYNC_UI_TEXT.pendingEmpty}</p>
      ) : (
        <table className="mc-sync-table">
          <thead>
            <tr>
              <th scope="col">{c.method}</th>
              <th scope="col">{c.path}</th>
              <th scope="col">{c.age}</th>
              <th scope="col">{c.attempts}</th>
              <th scope="col">{c.lastError}</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((e) => (
              <tr key={e.mutationId} data-status={e.status}>
                <td>{SYNC_UI_TEXT.entryOp[e.op]}</td>
                <td className="mc-sync-path">{`${e.collection}/${e.docId}`}</td>
                <td title={e.createdAt}>{formatAge(e.createdAt, now)}</td>
                <td>{e.attempts}</td>
                <td>{e.lastError ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}

function useNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    if (!active) return
    setNow(Date.now())
    const h = setInterval(() => setNow(Date.now()), AGE_TICK_MS)
    return () => clearInterval(h)
  }, [active])
  return now
}
