/**
 * The dedicated LISTEN connections (src/server/store/pg-listener.ts) come back after PostgreSQL drops
 * them: an instance whose connection was terminated still delivers a commit made by another instance,
 * caught up after it reconnects, and listens again.
 */
import pg from 'pg'
import { expect, it } from 'vitest'
import type { Change } from '../../src/server/store/types'
import { describePostgres, serverPairOnPostgres } from '../helpers/postgres-suite'

describePostgres('LISTEN connections after PostgreSQL drops them', () => {
  const pair = serverPairOnPostgres()

  it('re-listens and delivers what the other instance committed meanwhile', async () => {
    const seen: Change[] = []
    const off = pair.a.services.store.onCommit((changes) => seen.push(...changes))
    const admin = new pg.Client({ connectionString: pair.databaseUrl })
    await admin.connect()
    try {
      const killed = await admin.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN %' AND pid <> pg_backend_pid()",
      )
      // Both instances' change-feed connections (the video relay's last query is its pg_notify).
      expect(killed.rowCount).toBeGreaterThanOrEqual(2)
      await pair.b.services.store.write(
        { op: 'put', collection: 'data/relisten', id: 'one', body: { v: 1 } },
        { user: null },
      )
      await expect
        .poll(() => seen.some((c) => c.collection === 'data/relisten'), { timeout: 15_000 })
        .toBe(true)
      await expect
        .poll(
          async () =>
            (await admin.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE query LIKE 'LISTEN %'"))
              .rows[0].n,
          { timeout: 15_000 },
        )
        .toBeGreaterThanOrEqual(2)
    } finally {
      off()
      await admin.end()
    }
  })
})
