/**
 * The storage queue's logic over the files database, shared by the page's runner and the service
 * worker (no DOM, no React): storing items, picking the next one of a lane, and turning a server
 * answer into the item's next state. A lane's pass is src/sync/files/lane.ts. Items run one at a time per lane, oldest first, under the lane's
 * Web Lock (STORAGE_OPS_LOCK / STORAGE_UPLOADS_LOCK), so a tab and the worker never send one twice.
 */

import { bodyMessage } from '../../shared/body-message'
import { STORAGE_OP_TIMEOUT_MS } from '../../shared/constants'
import { nameLengthProblem } from '../../shared/storage'
import { UI_TEXT } from '../../shared/texts'
import { verdictOfStatus } from '../queue/retry'
import type { FilesDb } from './files-db'
import type { QueueRow, StorageOp, UploadOp } from './types'

export type Lane = 'ops' | 'uploads'

export const laneOf = (row: Pick<QueueRow, 'op'>): Lane => (row.op.kind === 'upload' ? 'uploads' : 'ops')

/** Statuses the runner still has to work on; 'running' left by a closed tab counts as waiting. */
const OPEN = new Set(['waiting', 'running'])
export const isOpen = (row: Pick<QueueRow, 'status'>): boolean => OPEN.has(row.status)

/** A random id: the item's Idempotency-Key and its tus `key`, so a replay is recognised. */
export function newItemId(): string {
  return (
    globalThis.crypto?.randomUUID?.() ?? `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`
  )
}

/** Stores rows (and the bytes of uploads) in one transaction: all are kept or none. */
export async function addRows(
  db: FilesDb,
  rows: QueueRow[],
  blobs: Map<string, Blob> = new Map(),
): Promise<void> {
  await db.transaction('rw', db.items, db.blobs, async () => {
    const last = await db.items.orderBy('seq').last()
    let seq = (last?.seq ?? 0) + 1
    for (const row of rows) row.seq = seq++
    await db.items.bulkAdd(rows)
    const list = [...blobs].map(([id, blob]) => ({ id, blob }))
    if (list.length) await db.blobs.bulkAdd(list)
  })
}

/**
 * The next item of a lane, or undefined. An upload waits for operations queued before it (a folder
 * made offline must exist before a file goes into it); operations never wait for uploads.
 */
export async function nextRow(db: FilesDb, lane: Lane): Promise<QueueRow | undefined> {
  const open = (await db.items.orderBy('seq').toArray()).filter(isOpen)
  const first = open.find((r) => laneOf(r) === lane)
  if (!first || lane === 'ops') return first
  return open.some((r) => laneOf(r) === 'ops' && (r.seq ?? 0) < (first.seq ?? 0)) ? undefined : first
}

export async function hasOpen(db: FilesDb): Promise<boolean> {
  return (await db.items.where('status').anyOf('waiting', 'running').count()) > 0
}

/** Updates a row unless it was cancelled meanwhile (a cancel from another tab wins). */
export async function updateRow(db: FilesDb, id: string, changes: Partial<QueueRow>): Promise<boolean> {
  return db.transaction('rw', db.items, async () => {
    const row = await db.items.get(id)
    if (!row || row.status === 'cancelled') return false
    await db.items.update(id, changes)
    return true
  })
}

/** A finished, failed or cancelled upload's bytes are no longer needed (retry of a failed one re-reads them, so failed keeps them). */
export async function dropBlob(db: FilesDb, id: string): Promise<void> {
  await db.blobs.delete(id)
}

/** `/api/{root}/{path}` with each name encoded, so `#`, `?` and `%` in names reach the server intact. */
export function storageUrl(base: string, root: string, path: string): string {
  const encoded = path
    .split('/')
    .filter(Boolean)
    .map((n) => encodeURIComponent(n))
    .join('/')
  return `${base}/api/${root}${encoded ? `/${encoded}` : ''}`
}

const join = (folder: string, name: string) => (folder ? `${folder}/${name}` : name)

export function opRequest(op: StorageOp): { method: string; path: string; body?: unknown } {
  switch (op.kind) {
    case 'mkdir':
      return { method: 'POST', path: op.folder, body: { directory: op.name } }
    case 'move':
      return { method: 'PATCH', path: op.path, body: { move: op.to } }
    case 'copy':
      return { method: 'POST', path: op.to, body: { from: op.from } }
    case 'delete':
      return { method: 'DELETE', path: op.path }
    case 'describe':
      return { method: 'PATCH', path: op.path, body: { description: op.description } }
  }
}

/** The path an op creates or changes, for ghost rows and hidden entries of the file browser. */
export function opTarget(op: StorageOp): string {
  switch (op.kind) {
    case 'mkdir':
      return join(op.folder, op.name)
    case 'copy':
      return op.to
    default:
      return op.path
  }
}

/**
 * Why the server would refuse a name this write touches (the shared length rule, paths.ts), or null.
 * Checked before a write is stored: a name that can never be accepted is refused on the spot, not
 * kept waiting in the queue for a server that will say no.
 */
export function namesProblem(op: StorageOp | UploadOp): string | null {
  const paths =
    op.kind === 'upload' || op.kind === 'mkdir'
      ? [join(op.folder, op.name)]
      : op.kind === 'move'
        ? [op.path, op.to]
        : op.kind === 'copy'
          ? [op.from, op.to]
          : [op.path]
  for (const path of paths) {
    for (const name of path.split('/')) {
      const problem = nameLengthProblem(name)
      if (problem) return problem
    }
  }
  return null
}

/**
 * What a finished request means for the item:
 * - done: 2xx (a replay answers the first response, Idempotent-Replayed: true);
 * - failed: a 4xx the user must act on (permission, bad name, taken name, over quota): never retried
 *   by itself, the server's message is shown;
 * - wait: the network, a timeout, a 5xx, 408/429, or 401 (the session expired: the next login sends
 *   it): kept and sent again later.
 */
export type Outcome =
  | { kind: 'done'; result: unknown }
  | { kind: 'failed'; error: string }
  | { kind: 'wait'; error: string; auth?: boolean }

/** The queues' one retry policy (src/sync/queue/retry.ts); the storage API always gets the user's token. */
export function outcomeOfStatus(status: number, message: string, result?: unknown): Outcome {
  const verdict = verdictOfStatus(status, { withToken: true })
  if (verdict.kind === 'done') return { kind: 'done', result }
  if (verdict.kind === 'refused') return { kind: 'failed', error: message }
  return verdict.reason === 'auth'
    ? { kind: 'wait', error: message, auth: true }
    : { kind: 'wait', error: message }
}

export interface Sender {
  fetch: typeof fetch
  base: string
  token: string | null
}

/** Sends one JSON operation with the item's id as Idempotency-Key. */
export async function sendOp(
  sender: Sender,
  row: QueueRow,
  signal?: AbortSignal,
  timeoutMs = STORAGE_OP_TIMEOUT_MS,
): Promise<Outcome> {
  const op = row.op as StorageOp
  const req = opRequest(op)
  const headers: Record<string, string> = { accept: 'application/json', 'idempotency-key': row.id }
  if (sender.token) headers.authorization = `Bearer ${sender.token}`
  if (req.body !== undefined) headers['content-type'] = 'application/json'
  const timeout = AbortSignal.timeout(timeoutMs)
  try {
    const res = await sender.fetch(storageUrl(sender.base, op.root, req.path), {
      method: req.method,
      headers,
      body: req.body === undefined ? undefined : JSON.stringify(req.body),
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    })
    const text = await res.text()
    let body: unknown = text
    try {
      body = text ? JSON.parse(text) : undefined
    } catch {
      // Keep the text: a proxy's error page is still worth showing.
    }
    return outcomeOfStatus(res.status, bodyMessage(res.status, body, res.statusText), body)
  } catch (e) {
    if (timeout.aborted) return { kind: 'wait', error: UI_TEXT.requestTimedOut }
    return { kind: 'wait', error: e instanceof Error ? e.message : String(e) }
  }
}

/** Writes an outcome into the row (and drops an upload's bytes once they are no longer needed). */
export async function applyOutcome(db: FilesDb, row: QueueRow, outcome: Outcome): Promise<void> {
  if (outcome.kind === 'done') {
    await updateRow(db, row.id, { status: 'done', sent: row.total, result: outcome.result, error: undefined })
    await dropBlob(db, row.id)
  } else if (outcome.kind === 'failed') {
    await updateRow(db, row.id, { status: 'failed', error: outcome.error })
  } else {
    await updateRow(db, row.id, { status: 'waiting', error: outcome.error, attempts: row.attempts + 1 })
  }
}

/**
 * Deletes the server's partial upload of every cancelled item that has one (tus DELETE). A cancel made
 * while the link was down, or whose DELETE broke, is finished here on a later run. Gone already (404,
 * 410) counts as done. Returns false when some are left for later.
 */
export async function cleanupCancelled(db: FilesDb, sender: Sender): Promise<boolean> {
  const rows = (await db.items.where('status').equals('cancelled').toArray()).filter(
    (r) => r.uploadUrl && !r.cleaned,
  )
  let all = true
  for (const row of rows) {
    try {
      const res = await sender.fetch(row.uploadUrl!, {
        method: 'DELETE',
        headers: {
          'tus-resumable': '1.0.0',
          ...(sender.token ? { authorization: `Bearer ${sender.token}` } : {}),
        },
      })
      // Gone already (404, 410) or refused for good (another 4xx): nothing more to try. The server's
      // own expiry of unfinished uploads is the backstop.
      if (res.ok || outcomeOfStatus(res.status, '').kind === 'failed') {
        await db.items.update(row.id, { cleaned: true })
      } else all = false
    } catch {
      all = false
    }
  }
  return all
}
