/**
 * What the session may do, for screens: the session's permissions checked with the shared matcher
 * (src/shared/permissions.ts), exactly as the server's guard checks them, so the console offers only
 * what the server will accept (issue 11, docs/decisions/screens.md). The mutation API refuses the
 * rest with the same rule (src/sync/write-guard.ts); this is for hiding, disabling and explaining.
 */
import { useMemo } from 'react'
import { can, type Method, parsePermissions } from '../../shared/permissions'
import { type WriteOp, type WriteRefusal, writeRefusal } from '../../shared/write-permission'
import { useSession } from './use-session'

/** `allowed('users:r')`: the session's permissions checked with the shared matcher. */
export function useCan(): (requirement: string) => boolean {
  const { permissions } = useSession()
  return useMemo(() => {
    const grants = parsePermissions(permissions)
    return (requirement: string) => can(grants, requirement)
  }, [permissions])
}

/** `refusal('update', 'data/contacts', id)`: why this write is refused, or null when it may be made. */
export function useWriteRefusal(): (op: WriteOp, collection: string, id?: string) => WriteRefusal | null {
  const { permissions, user } = useSession()
  const self = user?._id ?? null
  return useMemo(() => {
    // Parsed once: a selection of 100,000 rows asks once per row.
    const grants = parsePermissions(permissions)
    return (op: WriteOp, collection: string, id?: string) => writeRefusal(grants, op, collection, id, self)
  }, [permissions, self])
}

/**
 * Whether the session may `method` anything under `prefix` (`data`): a grant on the prefix itself or
 * on a path below it (`data/contacts:r`). The Database screen uses it to explain an empty list.
 */
export function useMayUnder(prefix: string, method: Method): boolean {
  const { permissions } = useSession()
  return useMemo(() => {
    if (can(permissions, `${prefix}:${method}`)) return true
    return parsePermissions(permissions).some(
      (g) => !g.none && g.methods.has(method) && g.path.startsWith(`${prefix}/`),
    )
  }, [permissions, prefix, method])
}
