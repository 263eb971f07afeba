/**
 * The SQLite store's group commit and checkpoint worker (issue 20, store/group-commit.ts,
 * store/checkpointer.ts): single writes made in one turn of the event loop commit in one transaction,
 * yet each keeps its own answer, its own refusal and its own idempotency; the WAL is checkpointed by a
 * worker thread while the writer's own autocheckpoint is only a backstop. Real SQLite in a temp dir.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ApiError } from '../../src/server/errors'
import { CHECKPOINT_EVERY, FALLBACK_PAGES, startCheckpointer } from '../../src/server/store/checkpointer'
import { openSqliteStore } from '../../src/server/store/sqlite'
import type { Change, DocumentStore, WriteResult } from '../../src/server/store/types'

let dir: string
let store: DocumentStore
let commits: Change[][]

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'momentum-group-'))
  store = openSqliteStore(path.join(dir, 'store.db'))
  commits = []
  store.onCommit((changes) => commits.push(changes))
})

afterEach(async () => {
  await store.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

const ctx = (key?: string) => ({ user: 'alice', ...(key ? { idempotencyKey: key, requestHash: 'h' } : {}) })

describe('group commit', () => {
  it('commits the writes of one turn together, each with its own answer, in the order made', async () => {
    const results = await Promise.all(
      [1, 2, 3].map((n) =>
        store.write({ op: 'create', collection: 'things', id: `t${n}`, body: { n } }, ctx(`k${n}`)),
      ),
    )
    expect(results.map((r) => [r.status, (r.body as { _id: string })._id])).toEqual([
      [201, 't1'],
      [201, 't2'],
      [201, 't3'],
    ])
    // One commit, so the listeners (permission cache, websockets) hear of all three at once.
    expect(commits).toHaveLength(1)
    expect(commits[0]!.map((c) => c.id)).toEqual(['t1', 't2', 't3'])
    expect(commits[0]!.map((c) => c.seq)).toEqual([...commits[0]!.map((c) => c.seq)].sort((a, b) => a - b))
    expect(results.map((r) => r.change?.seq)).toEqual(commits[0]!.map((c) => c.seq))
  })

  it('rolls back a refused write alone; the others of its group commit', async () => {
    await store.write({ op: 'create', collection: 'things', id: 'a', body: { v: 0 } }, ctx())
    const settled = await Promise.allSettled([
      store.write({ op: 'patch', collection: 'things', id: 'a', body: { v: 1 }, expectedRev: 1 }, ctx('p1')),
      // Stale: the first patch of this group already moved it to rev 2.
      store.write({ op: 'patch', collection: 'things', id: 'a', body: { v: 9 }, expectedRev: 1 }, ctx('p2')),
      store.write({ op: 'create', collection: 'things', id: 'b', body: { v: 2 } }, ctx('c1')),
    ])
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
    const refused = (settled[1] as PromiseRejectedResult).reason
    expect(refused).toBeInstanceOf(ApiError)
    expect((refused as ApiError).code).toBe('conflict')
    expect(await store.get('things', 'a')).toMatchObject({ v: 1, _rev: 2 })
    expect(await store.get('things', 'b')).toMatchObject({ v: 2 })
    expect(commits.at(-1)!.map((c) => [c.id, c.rev])).toEqual([
      ['a', 2],
      ['b', 1],
    ])
    // The refused key stored nothing: sent again (now on the right revision) it is a new request.
    const again = await store.write(
      { op: 'patch', collection: 'things', id: 'a', body: { v: 9 }, expectedRev: 2 },
      ctx('p2'),
    )
    expect(again).toMatchObject({ status: 200, replayed: false })
  })

  it('answers a key repeated within one group from the first write, as a replay', async () => {
    const write = () =>
      store.write({ op: 'create', collection: 'things', id: 'x', body: { v: 1 } }, ctx('same'))
    const [first, second] = (await Promise.all([write(), write()])) as [WriteResult, WriteResult]
    expect(first).toMatchObject({ status: 201, replayed: false })
    expect(second).toMatchObject({ status: 201, replayed: true, body: first.body })
    expect(commits.flat().map((c) => c.id)).toEqual(['x'])
  })

  it('commits queued single writes before a writeMany made after them', async () => {
    const single = store.write({ op: 'create', collection: 'things', id: 's', body: {} }, ctx())
    const many = store.writeMany([{ op: 'create', collection: 'things', id: 'm', body: {} }], ctx())
    await Promise.all([single, many])
    expect(commits.flat().map((c) => c.id)).toEqual(['s', 'm'])
  })

  it('serialises the document once: the answer text is the stored row', async () => {
    const r = await store.write(
      { op: 'create', collection: 'things', id: 'j', body: { a: [1, { b: 2 }] } },
      ctx(),
    )
    expect(r.json).toBe(JSON.stringify(r.body))
    expect(JSON.parse(r.json!)).toEqual(await store.get('things', 'j'))
  })
})

describe('batch entries (writeEach)', () => {
  // All entries are first tried in one transaction without savepoints; a refusal rolls that attempt back
  // and the batch runs again with a savepoint per entry. Nothing of the first attempt may show.
  it('keeps a refusal with its entry; the others commit once, with no trace of the first attempt', async () => {
    await store.write({ op: 'create', collection: 'things', id: 'old', body: { v: 0 } }, ctx())
    const before = commits.flat().at(-1)!.seq
    const outcomes = await store.writeEach([
      { write: { op: 'create', collection: 'things', id: 'a', body: { v: 1 } }, ctx: ctx('e1') },
      {
        write: { op: 'patch', collection: 'things', id: 'old', body: { v: 9 }, expectedRev: 5 },
        ctx: ctx('e2'),
      },
      { write: { op: 'create', collection: 'things', body: { v: 3 } }, ctx: ctx('e3') },
    ])
    expect(outcomes.map((o) => o.ok)).toEqual([true, false, true])
    expect(((outcomes[1] as { error: unknown }).error as ApiError).code).toBe('conflict')
    const made = (outcomes[2] as { result: WriteResult }).result.body as { _id: string }
    // One commit with the two entries that stood, numbered straight after the last change.
    expect(commits.at(-1)!.map((c) => [c.id, c.seq])).toEqual([
      ['a', before + 1],
      [made._id, before + 2],
    ])
    const ids = (await store.list('things', {})).items.map((d) => d._id).sort()
    expect(ids).toEqual(['a', made._id, 'old'].sort())
    expect(await store.get('things', 'old')).toMatchObject({ v: 0, _rev: 1 })
    // The refused entry's key stored nothing; the others' keys replay.
    const again = await store.writeEach([
      { write: { op: 'create', collection: 'things', id: 'a', body: { v: 1 } }, ctx: ctx('e1') },
      {
        write: { op: 'patch', collection: 'things', id: 'old', body: { v: 9 }, expectedRev: 1 },
        ctx: ctx('e2'),
      },
    ])
    expect(again.map((o) => o.ok && o.result.replayed)).toEqual([true, false])
  })
})

describe('checkpoint worker', () => {
  it('checkpoints the WAL in a worker thread; the writer keeps only a backstop autocheckpoint', async () => {
    const file = path.join(dir, 'ckpt.db')
    const db = new Database(file)
    db.pragma('journal_mode = WAL')
    db.exec('CREATE TABLE t (v TEXT)')
    const checkpointer = startCheckpointer(db, file)
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)')
    // One checkpoint is asked for, by the last write: every row is committed before it.
    const writes = CHECKPOINT_EVERY
    for (let i = 0; i < writes; i++) {
      insert.run('x'.repeat(2000))
      checkpointer.committed(1)
    }
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(FALLBACK_PAGES)
    // The worker's PASSIVE checkpoint copies the frames into the database file itself: a copy of
    // that file alone, without its WAL, holds the rows (the writer did no checkpoint of its own).
    let rows = 0
    for (let i = 0; i < 400 && rows < writes; i++) {
      await new Promise((r) => setTimeout(r, 25))
      const copy = path.join(dir, `copy-${i}.db`)
      fs.copyFileSync(file, copy)
      const probe = new Database(copy, { readonly: true })
      try {
        const table = probe.prepare("SELECT 1 FROM sqlite_master WHERE name = 't'").get()
        rows = table ? (probe.prepare('SELECT COUNT(*) AS n FROM t').get() as { n: number }).n : 0
      } catch {
        // A copy taken while the worker was writing pages is torn ("malformed"): look again.
        rows = 0
      } finally {
        probe.close()
      }
    }
    expect(rows).toBe(writes)
    await checkpointer.close()
    db.close()
  })
})
