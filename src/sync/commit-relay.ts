/**
 * The worker's own notice to its page of what a committed transaction wrote to the mirror (`docs`):
 * the rows as stored, sent once IndexedDB reports the transaction complete, so the page can show a
 * streamed change without waiting for Dexie's cross-context notification (a BroadcastChannel hop
 * through the browser process) and for its live queries to re-read the change (docs/contributing/performance.md,
 * reactivity). Dexie's notification still follows and stays the source of truth: this only lets the
 * visible window show the committed rows a few milliseconds earlier (src/app/data/committed-window.ts).
 *
 * Only what IndexedDB committed is sent: rows are collected as the transaction's writes succeed and
 * posted from its `complete` event, never for an aborted one. A row with pending local writes is sent
 * as stored, i.e. with those writes applied (the engine's merge decided it, not this relay).
 */
import type Dexie from 'dexie'
import type { DBCoreMutateRequest, DBCoreTransaction } from 'dexie'
import type { SyncDoc } from '../db/types'

/** A transaction writing more rows than this (a mirror page, an import) is not relayed: its size would
 * cost more to copy between threads than the live query's re-read, and no window shows that many. */
export const RELAY_MAX_ROWS = 200

export interface CommittedRow {
  collection: string
  id: string
  doc: SyncDoc
}

export interface CommittedDocs {
  /** The database the rows were written to (databaseName(origin, user)). */
  database: string
  puts: CommittedRow[]
  /** [collection, id] of the rows deleted. */
  deletes: [string, string][]
}

interface Pending {
  puts: CommittedRow[]
  deletes: [string, string][]
  /** A range delete or too many rows: nothing is relayed for this transaction. */
  skip: boolean
}

function record(pending: Pending, req: DBCoreMutateRequest): void {
  if (pending.skip) return
  const count =
    req.type === 'deleteRange'
      ? Number.POSITIVE_INFINITY
      : req.type === 'delete'
        ? req.keys.length
        : req.values.length
  if (pending.puts.length + pending.deletes.length + count > RELAY_MAX_ROWS) {
    // A range delete, or a page of a mirror: not looked at row by row.
    pending.skip = true
    pending.puts = []
    pending.deletes = []
    return
  }
  if (req.type === 'delete') {
    const keys = req.keys as [string, string][]
    // The page applies deletes before puts: a row this transaction put and then deleted is no put.
    const gone = new Set(keys.map(([c, id]) => `${c}\u0000${id}`))
    pending.puts = pending.puts.filter((r) => !gone.has(`${r.collection}\u0000${r.id}`))
    pending.deletes.push(...keys)
  } else if (req.type !== 'deleteRange') {
    for (const row of req.values as { collection: string; id: string; doc: SyncDoc }[]) {
      pending.puts.push({ collection: row.collection, id: row.id, doc: row.doc })
    }
  }
}

/**
 * Adds the relay to `db` (before it opens) and returns it. `post` runs after each committed transaction
 * that wrote `docs`, in commit order.
 */
export function relayCommits<T extends Dexie>(db: T, post: (committed: CommittedDocs) => void): T {
  const open = new WeakMap<DBCoreTransaction, Pending>()
  db.use({
    stack: 'dbcore',
    name: 'commit-relay',
    create(down) {
      return {
        ...down,
        table(name) {
          const table = down.table(name)
          if (name !== 'docs') return table
          return {
            ...table,
            mutate(req) {
              return table.mutate(req).then((res) => {
                let pending = open.get(req.trans)
                if (!pending) {
                  const created: Pending = { puts: [], deletes: [], skip: false }
                  pending = created
                  open.set(req.trans, created)
                  // The IndexedDB adapter's transaction is the IDBTransaction itself.
                  ;(req.trans as unknown as IDBTransaction).addEventListener('complete', () => {
                    open.delete(req.trans)
                    if (created.skip || created.puts.length + created.deletes.length === 0) return
                    post({ database: db.name, puts: created.puts, deletes: created.deletes })
                  })
                }
                // A bulk write with failed rows: relay nothing rather than work out which rows stuck.
                if (res.numFailures > 0) pending.skip = true
                record(pending, req)
                return res
              })
            },
          }
        },
      }
    },
  })
  return db
}
