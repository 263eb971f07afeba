/**
 * The leader's outbox replay (ARCHITECTURE §3). Entries go out in append order as ordinary REST calls
 * with Idempotency-Key = mutationId, so a request whose response was lost is answered from the server's
 * idempotency record instead of being applied twice, and If-Match = baseRev, so a stale write is never
 * applied blindly. Outcomes:
 *   2xx                → confirmed: the entry leaves the outbox, the next write of the doc gets its rev
 *   unreachable, 5xx, 429 → the entry stays; retry after exponential backoff with jitter
 *   401                → the entry stays; replay waits for a new token of the same user
 *   409 on a PATCH whose fields the other writer did not touch → re-sent on the new rev (auto-merge)
 *   409 otherwise, 404 on an edit → conflict inbox with base / theirs / mine
 *   404 on a delete    → confirmed: the document is gone, which is what the user wanted
 *   other 4xx          → rejected: inbox
 * Entries go in append order. A refused write takes the later writes of its document to the inbox
 * with it (they depend on it) and never holds back writes of other documents.
 *
 * Batches (issue 11): a run of data writes at the head of the outbox goes in one POST /api/batch
 * (batch-replay.ts says which). The server applies them in one transaction and answers one result per
 * entry, each settled below exactly as a single request's answer would be; a failure of the request as
 * a whole (unreachable, 5xx, 429, 401) is the first entry's, as if it had gone alone, and the batch is
 * re-sent with the same keys. A server without the endpoint (404) gets single requests from then on.
 */
import type { OutboxEntry, SyncDoc } from '../db/types'
import { coalescedPasses } from '../shared/pass-loop'
import { BATCH_PATH, batchBody, collectBatch, isBatchable, splitResults } from './batch-replay'
import type { EngineContext } from './context'
import { call, type HttpOutcome, messageOf } from './http'
import { confirmEntries, confirmEntry, moveToInbox, updateEntry } from './local'
import { changedFields } from './overlay'
import type { TimerHandle } from './ports'

/** First retry after a second, doubling up to five minutes: a reboot of the server is rarely faster. */
export const BACKOFF_BASE_MS = 1000
export const BACKOFF_MAX_MS = 5 * 60_000

export function backoffDelay(attempts: number, random: number): number {
  const ceiling = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempts - 1))
  // Half fixed, half random: tabs and devices that failed together do not retry together.
  return Math.round(ceiling / 2 + (ceiling / 2) * random)
}

/**
 * The field and permission(s) a refusal names: `{field, permission}` of a delegated-authority 403, or
 * the first of a 400's `fields`; kept with the inbox item so the screen shows it next to that field.
 */
export function refusalOf(body: unknown): { field?: string; permission?: string[] } {
  if (!body || typeof body !== 'object') return {}
  const b = body as { field?: unknown; permission?: unknown; fields?: unknown }
  const out: { field?: string; permission?: string[] } = {}
  if (typeof b.field === 'string' && b.field) out.field = b.field
  else if (b.fields && typeof b.fields === 'object') {
    const first = Object.keys(b.fields)[0]
    if (first) out.field = first
  }
  const perms = typeof b.permission === 'string' ? [b.permission] : b.permission
  if (Array.isArray(perms) && perms.every((p) => typeof p === 'string') && perms.length)
    out.permission = perms as string[]
  return out
}

const isDoc = (v: unknown): v is SyncDoc =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as SyncDoc)._id === 'string' &&
  typeof (v as SyncDoc)._rev === 'number'

export class Replayer {
  /** The client queues' pass loop (shared/pass-loop.ts): one drain at a time, one more if kicked meanwhile. */
  private readonly passes = coalescedPasses(() => this.drainUnlessStopped(), {
    onError: (error) => this.storageTrouble(error),
  })
  private timer: TimerHandle | null = null
  private stopped = false
  /** false once the server answered 404 to a batch: it predates the endpoint. */
  private batching = true

  constructor(private readonly ctx: EngineContext) {}

  /** Starts a drain, or makes the running one look again when it finishes. */
  async kick(): Promise<void> {
    if (this.stopped) return
    await this.passes.kick()
  }

  private async drainUnlessStopped(): Promise<void> {
    if (!this.stopped) await this.drain()
  }

  /** Storage trouble (the gate already set the status flag): try again later, keep everything. */
  private storageTrouble(error: unknown): void {
    this.ctx.status.update({ lastError: String((error as Error)?.message ?? error) })
    // The server was reached (or not tried); "syncing" must not stick while storage is failing.
    if (this.ctx.status.get().network === 'syncing') this.ctx.status.update({ network: 'online' })
    if (!this.stopped && !this.ctx.closed()) {
      this.schedule(this.ctx.ports.clock.now() + backoffDelay(3, this.ctx.ports.clock.random()))
    }
  }

  stop(): void {
    this.stopped = true
    if (this.timer !== null) this.ctx.ports.clock.clearTimeout(this.timer)
    this.timer = null
  }

  /** Resolves when no drain is running (tests and the service worker wait on it). */
  async idle(): Promise<void> {
    while (this.passes.busy()) await this.passes.current()
  }

  private schedule(at: number) {
    const { clock } = this.ctx.ports
    if (this.timer !== null) clock.clearTimeout(this.timer)
    this.timer = clock.setTimeout(
      () => {
        this.timer = null
        void this.kick()
      },
      Math.max(0, at - clock.now()),
    )
  }

  /**
   * The oldest entry, or when it is backing off, the time to look again. Entries behind it wait too:
   * replay keeps the order writes were made in, across documents (a user created before the group
   * that names it stays before it). A refused entry does not block: it leaves the outbox for the inbox.
   */
  private async next(): Promise<{ entry: OutboxEntry | null; wakeAt: number | null }> {
    const first = await this.ctx.storage.read((db) => db.outbox.orderBy('seq').first())
    if (!first) return { entry: null, wakeAt: null }
    if (first.notBefore > this.ctx.ports.clock.now()) return { entry: null, wakeAt: first.notBefore }
    return { entry: first, wakeAt: null }
  }

  private async drain(): Promise<void> {
    const { ctx } = this
    while (!this.stopped && !ctx.closed() && ctx.status.get().auth === 'ok') {
      const { entry, wakeAt } = await this.next()
      if (!entry) {
        if (wakeAt !== null) this.schedule(wakeAt)
        return
      }
      // An attempt is not contact: with the server known out of reach the status stays 'offline' (the
      // toolbar, and the screens' "on this device" wording) until an answer sets 'online'. Flipping
      // to 'syncing' here let a write made during a retry say it had reached the server.
      if (ctx.status.get().network !== 'offline') ctx.status.update({ network: 'syncing' })
      const batch =
        this.batching && isBatchable(entry)
          ? await ctx.storage.read((db) => collectBatch(db, entry, ctx.ports.clock.now()))
          : [entry]
      const goOn = batch.length > 1 ? await this.sendBatch(batch) : await this.send(entry)
      if (!goOn) return
    }
  }

  /** Sends one entry; false when replay must pause (offline, backoff, 401). */
  private async send(e: OutboxEntry): Promise<boolean> {
    const { ctx } = this
    const headers: Record<string, string> = { 'idempotency-key': e.mutationId }
    if (e.baseRev !== null) headers['if-match'] = String(e.baseRev)
    const res = await call(ctx.ports.transport, ctx.origin, e.path, {
      method: e.method,
      token: ctx.token(),
      body: e.body,
      headers,
    })
    if (ctx.closed() || this.stopped) return false
    return this.settle(e, res)
  }

  /** Sends a run of entries in one request; each result is settled as its single request would be. */
  private async sendBatch(entries: OutboxEntry[]): Promise<boolean> {
    const { ctx } = this
    const res = await call(ctx.ports.transport, ctx.origin, BATCH_PATH, {
      method: 'POST',
      token: ctx.token(),
      body: batchBody(entries),
    })
    if (ctx.closed() || this.stopped) return false
    if (res.status === 404 || res.status === 405) {
      this.batching = false
      return true
    }
    const transient = res.status === 0 || res.status >= 500 || res.status === 429 || res.status === 401
    if (transient) return this.settle(entries[0]!, res)
    const outcomes = res.ok ? splitResults(res, entries.length) : null
    // Any other refusal of the request as a whole (413, 400) says nothing about the entries: send singly.
    if (!outcomes) return this.send(entries[0]!)
    // Successes in one local transaction (a batch of 500 must not be 500 transactions); the rest one by one.
    const now = ctx.ports.clock.now()
    const confirmed = entries.flatMap((e, i) =>
      outcomes[i]!.ok ? [{ mutationId: e.mutationId, ...this.confirmation(e, outcomes[i]!) }] : [],
    )
    if (confirmed.length) {
      await ctx.storage.run((db) => confirmEntries(db, confirmed, ctx.user, now))
      ctx.status.update({ network: 'online', lastError: null })
    }
    let goOn = true
    for (const [i, e] of entries.entries()) {
      if (!outcomes[i]!.ok && !(await this.settle(e, outcomes[i]!))) goOn = false
    }
    return goOn
  }

  private confirmation(e: OutboxEntry, res: HttpOutcome): { doc: SyncDoc | null; rev: number } {
    const doc = e.op === 'delete' || !isDoc(res.body) ? null : res.body
    const rev =
      isDoc(res.body) || typeof (res.body as { _rev?: unknown })?._rev === 'number'
        ? (res.body as { _rev: number })._rev
        : 0
    return { doc, rev }
  }

  /** What one answer means for its entry; false when replay must pause (offline, backoff, 401). */
  private async settle(e: OutboxEntry, res: HttpOutcome): Promise<boolean> {
    const { ctx } = this
    const { clock } = ctx.ports
    const now = clock.now()

    if (res.ok) {
      const result = this.confirmation(e, res)
      await ctx.storage.run((db) => confirmEntry(db, e.mutationId, result, ctx.user, now))
      ctx.status.update({ network: 'online', lastError: null })
      return true
    }
    if (res.status === 0 || res.status >= 500 || res.status === 429) {
      const attempts = e.attempts + 1
      const retryAfter = res.status === 429 ? Number(res.headers.get('retry-after')) * 1000 : 0
      const delay = Math.max(
        backoffDelay(attempts, clock.random()),
        Number.isFinite(retryAfter) ? retryAfter : 0,
      )
      const lastError =
        res.status === 0
          ? String((res.error as Error)?.message ?? res.error)
          : messageOf(res.body, `HTTP ${res.status}`)
      await ctx.storage.run((db) => updateEntry(db, e.seq!, { attempts, notBefore: now + delay, lastError }))
      ctx.status.update({ network: res.status === 0 ? 'offline' : 'online', lastError })
      this.schedule(now + delay)
      return false
    }
    ctx.status.update({ network: 'online' })
    if (res.status === 401) {
      ctx.authExpired()
      return false
    }
    const message = messageOf(res.body, `HTTP ${res.status}`)
    if (res.status === 409) {
      const current = (res.body as { current?: unknown })?.current
      const theirs = isDoc(current) ? current : undefined
      if (theirs && e.op === 'patch' && e.body && e.base) {
        const touched = changedFields(e.base, theirs)
        if (!Object.keys(e.body).some((k) => touched.has(k))) {
          await ctx.storage.run((db) =>
            updateEntry(db, e.seq!, {
              baseRev: theirs._rev,
              base: theirs,
              attempts: e.attempts + 1,
              lastError: message,
            }),
          )
          return true
        }
      }
      await ctx.storage.run((db) =>
        moveToInbox(db, e.mutationId, { kind: 'conflict', status: 409, message, theirs }, now),
      )
      return true
    }
    if (res.status === 404 && e.op === 'delete') {
      await ctx.storage.run((db) =>
        confirmEntry(db, e.mutationId, { doc: null, rev: e.baseRev ?? 0 }, ctx.user, now),
      )
      return true
    }
    if (res.status === 404 && e.op === 'patch') {
      await ctx.storage.run((db) =>
        moveToInbox(db, e.mutationId, { kind: 'conflict', status: 404, message, theirs: null }, now),
      )
      return true
    }
    await ctx.storage.run((db) =>
      moveToInbox(
        db,
        e.mutationId,
        { kind: 'rejected', status: res.status, message, ...refusalOf(res.body), theirs: undefined },
        now,
      ),
    )
    return true
  }
}
