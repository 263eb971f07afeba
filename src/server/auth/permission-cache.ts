/**
 * A user's permissions (the union of their groups'), kept between requests (issue 20). Reading them
 * costs one store read for the user and one per group, on every authenticated request; the guard then
 * compiled every grant's pattern again. Now both are done once per user until something could change
 * the answer.
 *
 * A commit to `users` or `groups` empties the cache, before the write that made it answers; how that
 * holds on SQLite and on several PostgreSQL instances is in commit-cache.ts.
 */
import { type Grant, parsePermissions } from '../../shared/permissions'
import type { DocumentStore } from '../store/types'
import { createCommitCache } from './commit-cache'

/** Collections whose documents decide someone's permissions. */
const SOURCES = new Set(['users', 'groups'])
/** Users kept at once; past it the oldest entry goes (a server has far fewer active users). */
const MAX_USERS = 10_000

export interface PermissionCache {
  permissionsOf(user: string): Promise<string[]>
  /** The kept permissions when known right without a store read (commit-cache.ts peek), else undefined. */
  permissionsKept(user: string): string[] | undefined
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
  // Any commit to users or groups could change anyone's union: everything goes.
  const cache = createCommitCache<readonly string[]>(
    store,
    (collection) => (SOURCES.has(collection) ? true : null),
    MAX_USERS,
  )
  return {
    async permissionsOf(user) {
      return (await cache.get(user, async () =>
        Object.freeze(await readPermissions(store, user)),
      )) as string[]
    },
    permissionsKept(user) {
      return cache.peek(user) as string[] | undefined
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
