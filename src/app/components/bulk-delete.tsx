/**
 * Bulk delete of a table's selection, shared by the Database, Users and Groups lists: the permission
 * refusal per selected document (as the server checks it, issue 11), the SPEC §8 confirmation, the
 * deletes through the mutation API in batches (so it works offline) and the result toasts.
 */
import { Trash2 } from 'lucide-react'
import { useMemo } from 'react'
import type { WriteRefusal } from '../../shared/write-permission'
import { useMutate } from '../data/sync-context'
import type { WrittenDoc } from '../data/write-outcome'
import { confirmDelete, notifyDeleted } from '../feedback/notify'
import { toast } from '../feedback/toast-store'
import { DeniedButton } from '../session/ReadOnly'
import { useWriteRefusal } from '../session/use-can'
import { useServerReachable } from '../sync-ui/use-server-reachable'
import { runBatches } from './batches'

export interface BulkDelete {
  /** Why the session may not delete the selection (the first refused document), or null. */
  refused: WriteRefusal | null
  run(): Promise<void>
}

/** `noun` is [singular, plural] as the confirmation says it ("Delete 2 users?"). */
export function useBulkDelete(
  collection: string,
  selected: ReadonlySet<string>,
  clear: () => void,
  noun: readonly [string, string],
): BulkDelete {
  const mutate = useMutate()
  const reachable = useServerReachable()
  const refusal = useWriteRefusal()
  const refused = useMemo(() => {
    for (const id of selected) {
      const r = refusal('delete', collection, id)
      if (r) return r
    }
    return null
  }, [selected, refusal, collection])
  const run = async () => {
    const ids = [...selected]
    if (!ids.length) return
    if (refused) {
      toast.warning(refused.message)
      return
    }
    if (!(await confirmDelete(ids.length, ids.length === 1 ? noun[0] : noun[1]))) return
    const written: WrittenDoc[] = []
    const result = await runBatches(
      ids,
      async (id) => {
        await mutate.delete(collection, id)
        written.push({ collection, id })
      },
      () => {},
    )
    notifyDeleted(result.done, ids.length, reachable, written)
    if (result.failed && result.firstError instanceof Error) toast.error(result.firstError.message)
    clear()
  }
  return { refused, run }
}

/** "Delete N" while something is selected; a DeniedButton saying why when the session may not. */
export function BulkDeleteButton({ count, bulk }: { count: number; bulk: BulkDelete }) {
  if (count === 0) return null
  return bulk.refused ? (
    <DeniedButton className="button button-danger" reason={bulk.refused.message}>
      <Trash2 size={16} aria-hidden="true" /> Delete {count}
    </DeniedButton>
  ) : (
    <button type="button" className="button button-danger" onClick={() => void bulk.run()}>
      <Trash2 size={16} aria-hidden="true" /> Delete {count}
    </button>
  )
}
