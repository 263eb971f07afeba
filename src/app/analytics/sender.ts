/**
 * Drains the queue (queue.ts) in order: a visit is POSTed with its `Idempotency-Key` (its local id, the
 * same on every replay, so a POST whose answer was lost is not stored twice), and the updates made for
 * it are PATCHed with the id the server gave. One tab drains at a time (Web Lock); an op leaves the queue
 * only after the server answered it. A network error or 5xx/429 stops the drain and the op waits for the
 * next try; any other 4xx will never succeed and is dropped.
 */
import { RECORD } from '../../shared/analytics'
import { coalescedPasses } from '../../shared/pass-loop'
import { type QueueLockPort, unlocked } from '../../sync/queue/ports'
import { verdictOfStatus } from '../../sync/queue/retry'
import type { OpQueue, QueueEntry } from './queue'

/** Sent later than this after it was made, a visit says when it was made. */
const LATE_MS = 10_000

export interface SenderPorts {
  fetch: typeof fetch
  /** The platform's origin, e.g. http://127.0.0.1:8080 */
  base(): string
  queue: OpQueue
  now(): number
  /** The tabs' Web Lock: a tab drains only if no other tab is draining; absent: always drains. */
  locks?: QueueLockPort
}

const DRAIN_LOCK = 'momentum-analytics-queue'

export type DrainResult = 'done' | 'retry'

/** Local visit id → the server's id, for updates made after the visit went out. */
export type ServerIds = Map<string, string | null>

class Retry extends Error {}

export function createSender(ports: SenderPorts, ids: ServerIds) {
  async function call(method: string, path: string, body: unknown, key?: string): Promise<unknown> {
    const headers: Record<string, string> = { 'content-type': 'application/json' }
    if (key) headers['idempotency-key'] = key
    let res: Response
    try {
      // keepalive: the duration PATCH is often sent as the page goes away.
      const init: RequestInit = { method, headers, body: JSON.stringify(body), keepalive: true }
      res = await ports.fetch(`${ports.base()}${path}`, init)
    } catch {
      throw new Retry()
    }
    // Visits carry no token: a 401, like any other refusal, will never succeed and is dropped.
    const verdict = verdictOfStatus(res.status, { withToken: false })
    if (verdict.kind === 'retry') throw new Retry()
    if (verdict.kind === 'refused') return undefined
    return res.json().catch(() => undefined)
  }

  async function sendOne(entry: QueueEntry, rest: QueueEntry[]): Promise<void> {
    const op = entry.op
    if (op.kind === 'visit') {
      // A visit sent late carries the time it was made; a fresh one takes the server's clock, which
      // spares it a client clock that runs ahead.
      const body = ports.now() - op.at > LATE_MS ? [...op.body.slice(0, RECORD.time), op.at] : op.body
      const answer = (await call('POST', '/api/analytics', body, op.local)) as
        | { id?: string | null }
        | undefined
      const server = typeof answer?.id === 'string' ? answer.id : null
      ids.set(op.local, server)
      // Updates queued behind this visit learn its id now, in storage too: a drain cut after this
      // point must still know where to send them.
      const followers = rest.filter((e) => e.op.kind === 'update' && e.op.local === op.local)
      for (const f of followers) if (f.op.kind === 'update') f.op.server = server ?? ''
      if (followers.length) await ports.queue.put(followers)
      return
    }
    const server = op.server ?? ids.get(op.local)
    // '' or null: the visit was refused (Do Not Track on the server) or rejected; nothing to update.
    // undefined: another tab sent the visit before this update was queued here, and its id is not
    // known in this tab; the update (a duration or a speed) is dropped rather than guessed.
    if (!server) return
    await call('PATCH', `/api/analytics/${encodeURIComponent(server)}`, op.body)
  }

  async function drainNow(): Promise<DrainResult> {
    const list = await ports.queue.list()
    for (let i = 0; i < list.length; i++) {
      const entry = list[i]!
      try {
        await sendOne(entry, list.slice(i + 1))
      } catch (e) {
        if (e instanceof Retry) return 'retry'
        throw e
      }
      await ports.queue.remove(entry.key)
    }
    return 'done'
  }

  const locks = ports.locks ?? unlocked
  // Another tab draining: what is left here is retried later (that tab may be sending it already).
  const passes = coalescedPasses(async () => (await locks.tryHold(DRAIN_LOCK, drainNow))?.value ?? 'retry')
  return {
    /**
     * Sends everything queued; resolves 'retry' when something is left for a later try. Called while
     * a drain runs, it runs one more after it, so an op queued meanwhile goes out too.
     */
    async drain(): Promise<DrainResult> {
      return (await passes.kick()) ?? 'retry'
    },
  }
}
