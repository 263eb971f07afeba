/**
 * The quota's room held for writes in flight, atomically and across instances (docs/operating/storage.md
 * "Quota", docs/decisions/storage.md "Quota holds").
 *
 * One internal document per root, `_storage_quota/{root}` (never synced or served, like
 * `_action_state`), holds every hold: `{key: {bytes, expires, user?}}`. A write takes its hold by a
 * compare-and-swap of that document: read it (revision N), list the root's files, check
 *   files + other holds − what the write replaces + what it adds ≤ quota,
 * and put the document back with the hold added, naming revision N (expectedRev). The store applies a
 * write with expectedRev as one read-check-write (SQLite: its single writer; PostgreSQL: under the
 * writers' cluster-wide lock), so of two writers that read the same revision only one commits; the
 * other gets 409 and starts again from a fresh read, now counting the first one's hold. The document
 * is read BEFORE the listing: a hold released after that read changes the revision, so a file named
 * after the listing (and then released) can never be missed; at worst a file is counted twice (listed
 * and still held) for the moment between its commit and its release, which only errs on the safe side.
 *
 * A hold ends when its write finishes or fails (`release`), or lapses at `expires`: a write in flight
 * renews its own every third of its lifetime (`withHold`), so only a hold whose instance died lapses.
 * Resumable uploads hold room between PATCHes too, for TUS_HOLD_IDLE_MS after the last one, and at
 * most TUS_OPEN_UPLOADS_MAX of them per user and root. Without a quota for the root nothing is held.
 */
import crypto from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import { TUS_OPEN_UPLOADS_MAX } from '../../shared/constants'
import { STORAGE_TEXT } from '../../shared/texts'
import { ApiError } from '../errors'
import { fileBytes, inUnits } from './quota'
import type { RootContext } from './read'

export const QUOTA_HOLDS = '_storage_quota'
/** A one-shot write's hold (an upload being named, a copy): renewed while it runs, lapses if it dies. */
const WRITE_HOLD_MS = 2 * 60_000
/** Compare-and-swap rounds before giving up (503): every round one contender wins, so N need ≤ N. */
const ATTEMPTS = 200

interface Hold {
  bytes: number
  /** Epoch ms after which the hold no longer counts. */
  expires: number
  /** A resumable upload's owner (its holds count against TUS_OPEN_UPLOADS_MAX). */
  user?: string
}
type Holds = Record<string, Hold>

export interface HoldRequest {
  key: string
  /** Bytes the write adds to the root. */
  adding: number
  /** Bytes of the files it replaces (a function: only looked up when the room is checked). */
  freeing?: number | (() => Promise<number>)
  /** How long the hold lasts unless renewed. */
  lifetime?: number
  /** A resumable upload's owner. */
  user?: string
  /** Refuse (429) when `user` already holds room for TUS_OPEN_UPLOADS_MAX other uploads. */
  capped?: boolean
  /** Keep a live hold under this key as it is (only renewed): the room was checked when it was taken. */
  keepLive?: boolean
}

export const uploadHoldKey = (uploadId: string): string => `tus:${uploadId}`

const limitOf = (ctx: RootContext): number | undefined => ctx.services.config.storageQuota?.[ctx.root]

/** A hold with more than this part of its lifetime left is not written again just to renew it. */
const fresh = (hold: Hold, now: number, lifetime: number) => hold.expires - now > (lifetime * 5) / 6

function liveHolds(raw: unknown, now: number): Holds {
  const out: Holds = {}
  if (!raw || typeof raw !== 'object') return out
  for (const [key, hold] of Object.entries(raw as Holds)) {
    if (hold && Number.isFinite(hold.bytes) && hold.expires > now) out[key] = hold
  }
  return out
}

/**
 * One compare-and-swap of the root's holds: `change` gets the live ones (expired ones are dropped on
 * the way) and answers the new set, or null to write nothing. Repeated on a lost race.
 */
async function swap(ctx: RootContext, change: (holds: Holds, now: number) => Promise<Holds | null>) {
  const { store } = ctx.services
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const doc = await store.get(QUOTA_HOLDS, ctx.root)
    const now = Date.now()
    const next = await change(liveHolds(doc?.held, now), now)
    if (!next) return
    const body = { held: next }
    try {
      await store.write(
        doc
          ? { op: 'put', collection: QUOTA_HOLDS, id: ctx.root, body, expectedRev: doc._rev }
          : { op: 'create', collection: QUOTA_HOLDS, id: ctx.root, body },
        { user: null },
      )
      return
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 409)) throw error
    }
    // Lost the race: someone else's hold changed the document. A short random pause spreads the rest.
    await sleep(Math.random() * Math.min(50, 2 + attempt * 2))
  }
  throw new ApiError('unavailable', STORAGE_TEXT.quotaBusy)
}

/**
 * Takes (or renews) a hold, refusing with 413 when the room is not there, or 429 when the user
 * already holds room for TUS_OPEN_UPLOADS_MAX uploads. Answers false when the root has no quota.
 */
export async function reserve(ctx: RootContext, request: HoldRequest): Promise<boolean> {
  const limit = limitOf(ctx)
  if (!limit) return false
  const { key, adding, lifetime = WRITE_HOLD_MS, user } = request
  await swap(ctx, async (holds, now) => {
    const expires = now + lifetime
    const own = holds[key]
    if (own && request.keepLive)
      return fresh(own, now, lifetime) ? null : { ...holds, [key]: { ...own, expires } }
    const others = Object.entries(holds).filter(([k]) => k !== key)
    if (request.capped && others.filter(([, h]) => h.user === user).length >= TUS_OPEN_UPLOADS_MAX)
      throw new ApiError('too_many_requests', STORAGE_TEXT.tusOpenUploads(TUS_OPEN_UPLOADS_MAX))
    const held = others.reduce((sum, [, h]) => sum + h.bytes, 0)
    const used = fileBytes(await ctx.blobs.list('', true))
    const freeing = typeof request.freeing === 'function' ? await request.freeing() : (request.freeing ?? 0)
    if (used + held - freeing + adding > limit)
      throw new ApiError('payload_too_large', STORAGE_TEXT.quotaExceeded(inUnits(limit)))
    return { ...holds, [key]: user ? { bytes: adding, expires, user } : { bytes: adding, expires } }
  })
  return true
}

/** Pushes a live hold's end to `lifetime` from now; a hold that is gone stays gone. */
export async function renew(ctx: RootContext, key: string, lifetime = WRITE_HOLD_MS): Promise<void> {
  if (!limitOf(ctx)) return
  await swap(ctx, async (holds, now) => {
    const own = holds[key]
    if (!own || fresh(own, now, lifetime)) return null
    return { ...holds, [key]: { ...own, expires: now + lifetime } }
  })
}

export async function release(ctx: RootContext, key: string): Promise<void> {
  if (!limitOf(ctx)) return
  await swap(ctx, async (holds) => {
    if (!holds[key]) return null
    const { [key]: _gone, ...rest } = holds
    return rest
  })
}

/** Runs `work` while renewing the hold `key` every third of `lifetime`, so a long write keeps it. */
export async function renewingWhile<T>(
  ctx: RootContext,
  key: string,
  lifetime: number,
  work: () => Promise<T>,
): Promise<T> {
  if (!limitOf(ctx)) return work()
  const timer = setInterval(() => {
    renew(ctx, key, lifetime).catch(() => {
      // A renewal lost to a busy store is retried on the next tick; the hold lasts until then.
    })
  }, lifetime / 3)
  timer.unref()
  try {
    return await work()
  } finally {
    clearInterval(timer)
  }
}

/**
 * A write that adds bytes (a multipart upload, a copy, a saved file): room for `adding` (less the
 * `freeing` of the files it replaces) is held while `work` runs and let go when it ends, whatever way.
 */
export async function withRoom<T>(
  ctx: RootContext,
  adding: number,
  freeing: number,
  work: () => Promise<T>,
): Promise<T> {
  const key = `write:${crypto.randomBytes(9).toString('hex')}`
  if (!(await reserve(ctx, { key, adding, freeing }))) return work()
  try {
    return await renewingWhile(ctx, key, WRITE_HOLD_MS, work)
  } finally {
    await release(ctx, key).catch(() => {
      // Released by its expiry instead (WRITE_HOLD_MS), if the store is unreachable now.
    })
  }
}
