/**
 * A user's permissions (the union of their groups'), kept between requests (issue 20). Reading them
 * costs one store read for the user and one per group, on every authenticated request; the guard then
 * compiled every grant's pattern again. Now both are done once per user until something could change
 * the answer.
 *
 * Invalidation, so a changed group or user takes effect on the very next request:
 * - Any commit to `users` or `groups` empties the cache. The store calls its commit listeners before
 *   write() returns (SQLite in the same tick, PostgreSQL after COMMIT), so the request that changed a
 *   group has its answer only after the cache is gone.
 * - A read that overlaps such a commit is not kept (the generation counter): it may have read the old
 *   group.
 * - PostgreSQL with several instances: another instance's commit reaches this one through the change
 *   fan-out (LISTEN/NOTIFY, store/postgres-fanout.ts), a few milliseconds later, or later still if the
 *   LISTEN connection is down. So on a store shared between processes an entry is used only when this
 *   instance has delivered every change up to the database's current head (one cheap `MAX(seq)` per
 *   request): if a change it has not seen yet exists, whatever it touched, the permissions are read
 *   again. Strict, and still one query instead of one per group.
 */
import { type Grant, parsePermissions } from '../../shared/permissions'
import type { DocumentStore } from '../store/types'

/** Collections whose documents decide someone's permissions. */
const SOURCES = new Set(['users', 'groups'])
/** Users kept at once; past it the oldest entry goes (a server has far fewer active users). */
const MAX_USERS = 10_000

export interface PermissionCache {
  permissionsOf(user: string): Promise<string[]>
}

/** Reads a user's permissions from the store, uncached: the groups' permissions, each once. */
async function readPermissions(store: DocumentStore, user: string): Promise<string[]> {
  const doc = await store.get('users', user)
  const groups = Array.isArray(doc?.groups) ? (doc.groups as unknown[]) : []
  const perms = new Set<string>()
  for (const g of groups) {
    if (typeof g !== 'string') continue
    const group = await store.get('groups', g)
    for (const p of Array.isArray(group?.permissions) ? group.permissions : []) {
      if (typeof p === 'string') perms.add(p)
    }
  }
  return [...perms]
}

export function createPermissionCache(store: DocumentStore): PermissionCache {
  const entries = new Map<string, readonly string[]>()
  let generation = 0
  /** Highest change seq this instance has delivered to its listeners. */
  let delivered = 0
  // Only SQLite belongs to one process; every other store may be written by other instances.
  const shared = store.kind !== 'sqlite'

  store.onCommit((changes) => {
    for (const c of changes) if (c.seq > delivered) delivered = c.seq
    if (changes.some((c) => SOURCES.has(c.collection))) {
      generation++
      entries.clear()
    }
  })

  /** Whether a kept entry may be used now: on a shared store, only if no change is still on its way. */
  async function fresh(): Promise<boolean> {
    if (!shared) return true
    return (await store.headSeq()) <= delivered
  }

  return {
    async permissionsOf(user) {
      const kept = entries.get(user)
      if (kept && (await fresh()) && entries.get(user) === kept) return kept as string[]
      const started = generation
      const read = Object.freeze(await readPermissions(store, user))
      if (started === generation) {
        if (entries.size >= MAX_USERS) entries.delete(entries.keys().next().value!)
        entries.set(user, read)
      }
      return read as string[]
    },
  }
}

/** Compiled grants per permission list, so a cached list is compiled once, not on every request. */
const compiled = new WeakMap<readonly string[], Grant[]>()

/** parsePermissions, remembered for the same (frozen, cached) list. */
export function grantsOf(permissions: readonly string[]): Grant[] {
  let grants = compiled.get(permissions)
  if (!grants) {
    grants = parsePermissions(permissions)
    if (Object.isFrozen(permissions)) compiled.set(permissions, grants)
  }
  return grants
}
