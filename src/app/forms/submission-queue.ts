/**
 * The form submission queue (issue 17, docs/using/forms.md "Offline"): every submission is stored in
 * IndexedDB first, then sent; with no network it waits, survives a reload, and is sent on reconnect,
 * exactly once. A dedicated queue rather than the sync engine's outbox: a submission is not a write
 * to a collection the filler mirrors (a link form's filler is logged out and has no mirror; a group
 * form's filler usually may not read the target), it is a request to POST /api/forms/{id}/submissions.
 *
 * Exactly once: the entry's id is the document id the server stores and the Idempotency-Key, so a
 * request whose answer was lost is answered with the first response (201) or finds its id taken (409);
 * both mean "arrived" and the entry is dropped. Tabs send under one Web Lock, so two never race.
 * An entry remembers who made it: one made logged out is sent without a token, one made by a user only
 * while that user is logged in (never under someone else's name).
 */
import { useLiveQuery } from 'dexie-react-hooks'
import { bodyMessage } from '../../shared/body-message'
import { coalescedPasses } from '../../shared/pass-loop'
import { systemClock, unlocked, webLocks } from '../../sync/queue/ports'
import { exponentialBackoff, steppedBackoff, verdictOfStatus } from '../../sync/queue/retry'
import { createRetryTimer } from '../../sync/queue/retry-timer'
import { api } from '../api/client'
import { onServerReachable } from '../api/reachable'
import { sessionStore } from '../session/session'
import { formsDb, type QueuedSubmission } from './forms-db'
import {
  type PickedFile,
  type QueuedUpload,
  queueFiles,
  settleUploads,
  uploadsState,
} from './submission-files'

const LOCK = 'momentum-forms-queue'
const RETRY_BASE_MS = 2_000
const RETRY_CAP_MS = 30_000
/** An entry's wait after its n-th failed send: 4 s, 8 s … 30 s (or the server's Retry-After). */
const entryBackoff = exponentialBackoff(RETRY_BASE_MS, RETRY_CAP_MS)

const newId = (): string =>
  globalThis.crypto?.randomUUID?.() ?? `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`

const currentUser = (): string | null => sessionStore.get().user?._id ?? null

export { cacheKey, formsDb, type QueuedSubmission } from './forms-db'

export type SendOutcome =
  | { kind: 'sent'; message?: string }
  | { kind: 'queued' }
  | { kind: 'refused'; message: string; fields?: Record<string, string> }

/**
 * Stores a submission and tries to send it at once. 'sent' and 'queued' both mean it is safe; a
 * refusal (answers the server will never accept) is not kept, so the filler can correct and send again.
 */
export async function submitForm(
  form: string,
  answers: Record<string, unknown>,
  files: PickedFile[] = [],
): Promise<SendOutcome> {
  const d = formsDb()
  const id = newId()
  let uploads: QueuedUpload[] = []
  try {
    // Files first: the answers name them by path, and the entry below waits for them.
    uploads = await queueFiles(form, id, files)
  } catch (e) {
    return { kind: 'refused', message: e instanceof Error ? e.message : String(e) }
  }
  for (const u of uploads) answers = { ...answers, [u.field]: u.path }
  const last = await d.submissions.orderBy('seq').last()
  const entry: QueuedSubmission = {
    id,
    form,
    answers,
    user: currentUser(),
    createdAt: new Date().toISOString(),
    seq: (last?.seq ?? 0) + 1,
    status: 'waiting',
    attempts: 0,
    notBefore: 0,
    lastError: null,
    ...(uploads.length ? { uploads } : {}),
  }
  await d.submissions.add(entry)
  // Online, the filler watches the uploads' progress and hears the server's answer at the end.
  if (uploads.length) await settleUploads(uploads)
  const outcome = await queueLock().hold(LOCK, () => sendOne(entry))
  if (outcome.kind === 'refused') await d.submissions.delete(entry.id)
  if (outcome.kind === 'queued') retry.schedule()
  return outcome
}

/** One request for one entry; updates or drops the entry by the answer. */
async function sendOne(entry: QueuedSubmission): Promise<SendOutcome> {
  const d = formsDb()
  // Still there? Another tab may have sent it while this one waited for the lock.
  if (!(await d.submissions.get(entry.id))) return { kind: 'sent' }
  const token = sessionStore.get().token
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json',
    'idempotency-key': entry.id,
  }
  if (entry.user !== null) {
    if (entry.user !== currentUser() || !token) return { kind: 'queued' }
    headers.authorization = `Bearer ${token}`
  }
  if (entry.uploads?.length) {
    const files = await uploadsState(entry.uploads)
    if (files.kind !== 'ready') {
      // Waiting for its files is not a failed send: no backoff, a clear reason when one was refused.
      const lastError = files.kind === 'failed' ? files.message : null
      if (lastError !== entry.lastError) await d.submissions.update(entry.id, { lastError })
      return { kind: 'queued' }
    }
  }
  let res: Response
  try {
    // Plain fetch, not api.request: a logged-out entry must go without the session's token.
    res = await fetch(`${api.base()}/api/forms/${encodeURIComponent(entry.form)}/submissions`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ _id: entry.id, answers: entry.answers }),
      credentials: 'omit',
    })
  } catch {
    await retryLater(entry, null) // offline
    return { kind: 'queued' }
  }
  const body = (await res.json().catch(() => null)) as {
    message?: string
    fields?: Record<string, string>
  } | null
  if (res.status === 201 || res.status === 409) {
    await d.submissions.delete(entry.id)
    return { kind: 'sent', message: body?.message }
  }
  // 201 and 409 are the only arrivals; any other answer is a retry (server, throttled, the user's
  // session expired) or a refusal.
  const verdict = verdictOfStatus(res.status, {
    withToken: entry.user !== null,
    retryAfter: res.headers.get('retry-after'),
  })
  if (verdict.kind === 'retry') {
    await retryLater(entry, verdict.retryAfterMs ?? null, body?.message ?? res.statusText)
    return { kind: 'queued' }
  }
  const message = bodyMessage(res.status, body, res.statusText)
  await d.submissions.update(entry.id, { status: 'rejected', lastError: message })
  return { kind: 'refused', message, fields: body?.fields }
}

async function retryLater(entry: QueuedSubmission, retryAfterMs: number | null, error: string | null = null) {
  const attempts = entry.attempts + 1
  const wait = retryAfterMs ?? entryBackoff(attempts)
  await formsDb().submissions.update(entry.id, {
    attempts,
    notBefore: systemClock.now() + wait,
    lastError: error,
  })
}

/** Tabs send under one Web Lock; a browser without Web Locks has this tab alone. */
const queueLock = () =>
  typeof navigator !== 'undefined' && navigator.locks ? webLocks(navigator.locks) : unlocked

/**
 * Sends every waiting entry this tab may send, oldest first; stops at the first that must wait (the
 * network is down, or the server asked to slow down), so one pass costs one failed request offline.
 * `force` ignores the backoff: the browser just came back online.
 */
export async function flushQueue(force = false): Promise<number> {
  forceNext ||= force
  return (await passes.kick()) ?? 0
}

/** A kick with `force` while a pass runs makes the one more pass a forced one. */
let forceNext = false
const passes = coalescedPasses(async () => {
  const force = forceNext
  forceNext = false
  let sent = 0
  await queueLock().hold(LOCK, async () => {
    const waiting = await formsDb().submissions.where('status').equals('waiting').sortBy('seq')
    const user = currentUser()
    for (const entry of waiting) {
      if (entry.user !== null && entry.user !== user) continue
      if (!force && entry.notBefore > systemClock.now()) break
      const outcome = await sendOne(entry)
      if (outcome.kind === 'queued') break
      if (outcome.kind === 'sent') sent++
    }
  })
  if ((await formsDb().submissions.where('status').equals('waiting').count()) > 0) retry.schedule()
  return sent
})

/** While entries wait, the queue looks again every 2 s; each entry's own backoff is its notBefore. */
const retry = createRetryTimer(systemClock, steppedBackoff([RETRY_BASE_MS]), () => void flushQueue())

let started = false
/**
 * Starts sending: now, whenever the server answers again (reachable.ts: the browser's `online`, any
 * API answer after a failure, the console's socket connecting), and after each login (entries of that
 * user).
 */
export function startFormsQueue(): void {
  if (started || typeof window === 'undefined') return
  started = true
  onServerReachable(() => void flushQueue(true))
  sessionStore.subscribe(() => {
    if (sessionStore.get().status === 'authenticated') void flushQueue(true)
  })
  void flushQueue(true)
}

/** Drops a refused entry the filler has read about. */
export const discardSubmission = (id: string) => formsDb().submissions.delete(id)

/** This form's queued entries, live: waiting and refused ones. */
export function useQueued(form: string): QueuedSubmission[] | undefined {
  return useLiveQuery(() => formsDb().submissions.where('form').equals(form).sortBy('seq'), [form])
}
