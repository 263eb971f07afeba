/**
 * The peer of the mirror benchmark, in its own page (rx.html) because RxDB pins its own Dexie and Dexie
 * refuses to share a page with another copy of itself: RxDB's replication protocol
 * (replicateRxCollection) with a pull handler on the same GET /api/sync the engine uses, the engine's
 * page size, into RxDB's Dexie storage. Rows keep the engine's key ([collection|id]) and the whole
 * server document, as the engine's rows do.
 */
import { createRxDatabase, type RxJsonSchema } from 'rxdb'
import { replicateRxCollection } from 'rxdb/plugins/replication'
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie'
import type { PullResponse } from '../../src/shared/sync-protocol'
import type { Target } from './main'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
let serial = 0

/** `coll`, not `collection`: an RxDocument has a `collection` getter of its own. */
interface RxRow {
  id: string
  coll: string
  doc: Record<string, unknown>
}

const rxBench = {
  now: () => performance.now(),
  /** From creating the database to the last document found by a query. */
  async rxdb(t: Target): Promise<number> {
    const schema: RxJsonSchema<RxRow> = {
      version: 0,
      primaryKey: 'id',
      type: 'object',
      properties: {
        id: { type: 'string', maxLength: 300 },
        coll: { type: 'string' },
        doc: { type: 'object' },
      },
      required: ['id', 'coll', 'doc'],
    }
    const t0 = performance.now()
    const db = await createRxDatabase({
      name: `rx${++serial}`,
      storage: getRxStorageDexie(),
      multiInstance: false,
    })
    const { docs } = await db.addCollections({ docs: { schema } })
    const batchSize = t.pageSize ?? 500
    const replication = replicateRxCollection<RxRow, { cursor: number; epoch: string }>({
      collection: docs,
      replicationIdentifier: `momentum-${t.origin}`,
      live: false,
      pull: {
        batchSize,
        async handler(checkpoint, size) {
          const cursor = checkpoint?.cursor ?? 0
          const res = await fetch(`/api/sync?cursor=${cursor}&limit=${size}`, {
            headers: { authorization: `Bearer ${t.token}` },
          })
          if (!res.ok) throw new Error(`pull ${res.status}`)
          const page = (await res.json()) as PullResponse
          return {
            documents: page.changes.map((c) => ({
              id: `${c.collection}|${c.id}`,
              coll: c.collection,
              doc: c.doc ?? {},
              _deleted: c.op === 'delete',
            })),
            checkpoint: { cursor: page.cursor, epoch: page.epoch },
          }
        },
      },
    })
    const errors: unknown[] = []
    replication.error$.subscribe((e) => errors.push(e))
    await replication.awaitInitialReplication()
    const key = `${t.collection}|${t.lastId}`
    while (!(await docs.findOne(key).exec())) {
      if (errors.length) throw new Error(`RxDB replication failed: ${String(errors[0])}`)
      await sleep(10)
    }
    const ms = performance.now() - t0
    await replication.cancel()
    await db.remove()
    return ms
  },
}

export type RxBenchApi = typeof rxBench
;(window as unknown as { bench: RxBenchApi }).bench = rxBench
document.getElementById('status')!.textContent = 'ready'
