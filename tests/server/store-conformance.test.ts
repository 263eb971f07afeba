/**
 * One DocumentStore conformance suite run against both stores (ARCHITECTURE §2): SQLite in a temp file
 * and PostgreSQL on a real server (tests/helpers/postgres.ts). It drives the contract directly —
 * write semantics and statuses, expectedRev, idempotency, the change log and its paging, concurrent
 * writers against a concurrent reader, the query subset, collections, clear, epoch, secrets, onCommit —
 * so both stores are held to the same answers. PostgreSQL also gets two store instances on one database
 * (commit fan-out) and the real server started with DATABASE_URL.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { openPostgresStore } from '../../src/server/store/postgres'
import { openSqliteStore } from '../../src/server/store/sqlite'
import type { Change, DocumentStore, Filter, WriteResult } from '../../src/server/store/types'
import { MAX_DOCUMENT_DEPTH } from '../../src/shared/constants'
import { SERVER_TEXT } from '../../src/shared/texts'
import { changeLog } from '../helpers/change-log'
import { findPostgres, startTestPostgres, type TestPostgres } from '../helpers/postgres'
import { startTestServer } from '../helpers/server'
import {
  byteBoundBudget,
  byteBoundDocs,
  hostileDocs,
  hostileRegexCases,
  longListCases,
  queryCases,
  queryDocs,
} from './store-conformance-cases'

const postgres = findPostgres()
const user = { user: 'alice' }

interface Backend {
  /** Opens a store on this suite's data set (again: reopening sees the same data). */
  open(): Promise<DocumentStore>
  close(): Promise<void>
}

async function sqliteBackend(): Promise<Backend> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'momentum-conf-'))
  return {
    open: async () => openSqliteStore(path.join(dir, 'store.db')),
    close: async () => fs.rmSync(dir, { recursive: true, force: true }),
  }
}

let server: TestPostgres | undefined
async function postgresBackend(): Promise<Backend> {
  server = await startTestPostgres()
  const url = await server.newDatabase()
  return { open: () => openPostgresStore(url), close: async () => {} }
}

/** All changes after `after`, paging with a small limit so paging is exercised too. */
const logAfter = (store: DocumentStore, after: number) => changeLog(store, after, 7)

const kinds = [
  { kind: 'sqlite', backend: sqliteBackend, skip: undefined },
  {
    kind: 'postgres',
    backend: postgresBackend,
    skip: postgres.available ? undefined : postgres.reason,
  },
] as const

for (const { kind, backend, skip } of kinds) {
  const title = skip
    ? `DocumentStore conformance: ${kind} (skipped: ${skip})`
    : `DocumentStore conformance: ${kind}`
  ;(skip ? describe.skip : describe)(title, () => {
    let b: Backend
    let store: DocumentStore
    const others: DocumentStore[] = []

    beforeAll(async () => {
      b = await backend()
      store = await b.open()
    })
    afterAll(async () => {
      for (const s of others) await s.close()
      await store?.close()
      await b?.close()
      if (kind === 'postgres') await server?.close()
    })

    it('create, put, patch and delete answer with the contract statuses and documents', async () => {
      const c = 'things'
      const created = await store.write(
        { op: 'create', collection: c, body: { name: 'a', _rev: 99, _id: 'x' } },
        user,
      )
      expect(created.status).toBe(201)
      const doc = created.body as Record<string, unknown>
      expect(doc).toMatchObject({ name: 'a', _rev: 1, _updatedBy: 'alice' })
      expect(doc._id).not.toBe('x')
      expect(doc._created).toBe(doc._updated)
      // Generated ids are time-ordered.
      const second = await store.write({ op: 'create', collection: c, body: { name: 'b' } }, user)
      expect(String((second.body as { _id: string })._id) > String(doc._id)).toBe(true)

      await expect(
        store.write({ op: 'create', collection: c, id: String(doc._id), body: {} }, user),
      ).rejects.toMatchObject({ status: 409, message: SERVER_TEXT.alreadyExists, details: { current: doc } })

      const put = await store.write(
        { op: 'put', collection: c, id: 'p1', body: { a: 1, keep: { x: 1, y: 2 } } },
        user,
      )
      expect(put.status).toBe(201)
      const replaced = await store.write(
        { op: 'put', collection: c, id: 'p1', body: { b: 2 } },
        { user: 'bob' },
      )
      expect(replaced.status).toBe(200)
      expect(replaced.body).toMatchObject({ b: 2, _rev: 2, _updatedBy: 'bob' })
      expect(replaced.body).not.toHaveProperty('a')
      expect((replaced.body as Record<string, unknown>)._created).toBe(
        (put.body as Record<string, unknown>)._created,
      )

      const patched = await store.write(
        { op: 'patch', collection: c, id: 'p1', body: { b: null, n: { deep: { x: 1 } }, _rev: 7 } },
        user,
      )
      expect(patched.body).toMatchObject({ n: { deep: { x: 1 } }, _rev: 3 })
      expect(patched.body).not.toHaveProperty('b')
      const merged = await store.write(
        { op: 'patch', collection: c, id: 'p1', body: { n: { deep: { y: 2 } } } },
        user,
      )
      expect((merged.body as Record<string, unknown>).n).toEqual({ deep: { x: 1, y: 2 } })
      // Documents come back with their keys in the order written.
      await store.write(
        { op: 'put', collection: c, id: 'order', body: { z: 1, a: 2, m: { y: 1, b: 2 } } },
        user,
      )
      const ordered = (await store.get(c, 'order'))!
      expect(Object.keys(ordered)).toEqual([
        'z',
        'a',
        'm',
        '_id',
        '_rev',
        '_created',
        '_updated',
        '_updatedBy',
      ])
      expect(Object.keys(ordered.m as object)).toEqual(['y', 'b'])

      const deleted = await store.write({ op: 'delete', collection: c, id: 'p1' }, user)
      expect(deleted).toMatchObject({ status: 200, body: { ok: true, _id: 'p1', _rev: 5 } })
      expect(await store.get(c, 'p1')).toBeNull()
      for (const w of [
        { op: 'patch', collection: c, id: 'p1', body: {} },
        { op: 'delete', collection: c, id: 'p1' },
        { op: 'put', collection: c, id: 'p1', body: {}, expectedRev: 1 },
      ] as const) {
        await expect(store.write(w, user)).rejects.toMatchObject({ status: 404 })
      }
    })

    it('a stale expectedRev is 409 with the current document and writes nothing', async () => {
      const c = 'revs'
      await store.write({ op: 'put', collection: c, id: 'd', body: { v: 1 } }, user)
      const current = await store.write(
        { op: 'patch', collection: c, id: 'd', body: { v: 2 }, expectedRev: 1 },
        user,
      )
      const head = await store.headSeq()
      for (const w of [
        { op: 'patch', collection: c, id: 'd', body: { v: 3 }, expectedRev: 1 },
        { op: 'put', collection: c, id: 'd', body: { v: 3 }, expectedRev: 1 },
        { op: 'delete', collection: c, id: 'd', expectedRev: 5 },
      ] as const) {
        await expect(store.write(w, user)).rejects.toMatchObject({
          status: 409,
          message: SERVER_TEXT.revMismatch,
          details: { current: current.body },
        })
      }
      expect(await store.get(c, 'd')).toEqual(current.body)
      expect(await store.headSeq()).toBe(head)
    })

    it('an Idempotency-Key replays the first answer once per user and refuses reuse for another request', async () => {
      const c = 'idem'
      const head = await store.headSeq()
      const ctx = { user: 'alice', idempotencyKey: 'k1', requestHash: 'h1' }
      const first = await store.write({ op: 'create', collection: c, body: { n: 1 } }, ctx)
      const again = await store.write({ op: 'create', collection: c, body: { n: 1 } }, ctx)
      expect(again).toMatchObject({ status: 201, body: first.body, replayed: true })
      expect((await store.list(c)).total).toBe(1)
      await expect(
        store.write({ op: 'create', collection: c, body: { n: 2 } }, { ...ctx, requestHash: 'other' }),
      ).rejects.toMatchObject({ status: 400, message: SERVER_TEXT.idempotencyMismatch })
      // Keys are per user: bob's k1 is a new request.
      const bob = await store.write({ op: 'create', collection: c, body: { n: 3 } }, { ...ctx, user: 'bob' })
      expect(bob.replayed).toBe(false)
      const log = await logAfter(store, head)
      expect(log.map((ch) => [ch.idempotencyKey, ch.doc?.n])).toEqual([
        ['k1', 1],
        ['k1', 3],
      ])
      // A failed write records nothing: the key stays free.
      await expect(
        store.write(
          { op: 'patch', collection: c, id: 'none', body: {} },
          { user: 'alice', idempotencyKey: 'k2' },
        ),
      ).rejects.toMatchObject({ status: 404 })
      expect(await store.getIdempotent('k2', 'alice')).toBeNull()

      await store.putIdempotent('route-key', null, 'rh', 202, { queued: true })
      expect(await store.getIdempotent('route-key', null)).toEqual({
        status: 202,
        body: { queued: true },
        requestHash: 'rh',
      })
      expect(await store.getIdempotent('route-key', 'alice')).toBeNull()
    })

    it('logs every write in order, gap-free, with tombstones, and never logs internal collections', async () => {
      const head = await store.headSeq()
      await store.write({ op: 'put', collection: 'log', id: 'a', body: { v: 1 } }, user)
      await store.write({ op: 'put', collection: '_sessions', id: 's', body: { t: 1 } }, user)
      await store.write(
        { op: 'patch', collection: 'log', id: 'a', body: { v: 2 } },
        { user: 'alice', idempotencyKey: 'ik' },
      )
      await store.write({ op: 'delete', collection: '_sessions', id: 's' }, user)
      await store.write({ op: 'delete', collection: 'log', id: 'a' }, user)
      const log = await logAfter(store, head)
      expect(log.map((ch) => ch.seq)).toEqual([head + 1, head + 2, head + 3])
      expect(
        log.map((ch) => [ch.collection, ch.id, ch.op, ch.rev, ch.doc?.v ?? null, ch.idempotencyKey]),
      ).toEqual([
        ['log', 'a', 'upsert', 1, 1, null],
        ['log', 'a', 'upsert', 2, 2, 'ik'],
        ['log', 'a', 'delete', 3, null, null],
      ])
      expect(log[2]!.doc).toBeNull()
      expect(await store.headSeq()).toBe(head + 3)
      expect(await store.get('_sessions', 's')).toBeNull()
    })

    it('pages the change log with a cursor that passes filtered rows and says when there is more', async () => {
      const head = await store.headSeq()
      await store.writeMany(
        Array.from({ length: 10 }, (_, i) => ({
          op: 'put' as const,
          collection: i % 2 ? 'odd' : 'even',
          id: `n${i}`,
          body: { i },
        })),
        user,
      )
      const first = await store.changes(head, 3)
      expect(first.changes.map((c) => c.id)).toEqual(['n0', 'n1', 'n2'])
      expect(first).toMatchObject({ cursor: head + 3, more: true })
      const odd = (collection: string) => collection === 'odd'
      const page = await store.changes(head, 2, odd)
      expect(page.changes.map((c) => c.id)).toEqual(['n1', 'n3'])
      expect(page).toMatchObject({ cursor: head + 4, more: true })
      const rest = await store.changes(page.cursor, 100, odd)
      expect(rest.changes.map((c) => c.id)).toEqual(['n5', 'n7', 'n9'])
      expect(rest).toMatchObject({ cursor: head + 10, more: false })
      // Nothing readable at the tail: the cursor still moves to the head.
      const none = await store.changes(head + 9, 5, (collection) => collection === 'even')
      expect(none).toMatchObject({ changes: [], cursor: head + 10, more: false })
      expect(await store.changes(head + 10, 5)).toMatchObject({ changes: [], cursor: head + 10, more: false })
    })

    it('bounds a change page by the bytes of its stored JSON, skipping and repeating nothing', async () => {
      const head = await store.headSeq()
      await store.writeMany(
        byteBoundDocs.map(({ collection, pad }, i) => ({
          op: 'put' as const,
          collection,
          id: `b${i}`,
          body: { pad: 'x'.repeat(pad) },
        })),
        user,
      )
      await store.write({ op: 'delete', collection: 'bytes', id: 'b0' }, user)
      const all = (await store.changes(head, 100)).changes
      expect(all).toHaveLength(byteBoundDocs.length + 1)
      const size = (c: Change) => (c.doc ? Buffer.byteLength(JSON.stringify(c.doc)) : 0)
      const limit = 4
      for (const accept of [undefined, (collection: string) => collection === 'bytes']) {
        const expected = all.filter((c) => !accept || accept(c.collection))
        const got: Change[] = []
        let cursor = head
        for (;;) {
          const page = await store.changes(cursor, limit, accept, byteBoundBudget)
          const bytes = page.changes.reduce((n, c) => n + size(c), 0)
          // Several changes only when they fit; a bigger one alone, never an empty page mid-log.
          if (page.changes.length > 1) expect(bytes).toBeLessThanOrEqual(byteBoundBudget)
          if (page.more) expect(page.changes.length).toBeGreaterThan(0)
          const next = expected[got.length + page.changes.length]
          // A page short of the row limit ended only because the next change did not fit.
          if (page.more && page.changes.length < limit) {
            expect(bytes + size(next!)).toBeGreaterThan(byteBoundBudget)
          }
          if (next) expect(page.cursor).toBeLessThan(next.seq)
          got.push(...page.changes)
          cursor = page.cursor
          if (!page.more) break
        }
        expect(got).toEqual(expected)
        expect(cursor).toBe(head + all.length)
      }
      const big = all.find((c) => c.id === 'b5')!
      const alone = await store.changes(big.seq - 1, 10, undefined, 100)
      expect(alone.changes.map((c) => c.id)).toEqual(['b5'])
      expect(alone).toMatchObject({ cursor: big.seq, more: true })
    })

    it('writeMany is all or nothing', async () => {
      const head = await store.headSeq()
      await expect(
        store.writeMany(
          [
            { op: 'put', collection: 'batch', id: 'ok', body: {} },
            { op: 'patch', collection: 'batch', id: 'missing', body: {} },
          ],
          user,
        ),
      ).rejects.toMatchObject({ status: 404 })
      expect(await store.get('batch', 'ok')).toBeNull()
      expect(await store.headSeq()).toBe(head)
      const results = await store.writeMany(
        [
          { op: 'put', collection: 'batch', id: 'a', body: {} },
          { op: 'create', collection: 'batch', id: 'b', body: {} },
        ],
        user,
      )
      expect(results.map((r) => [r.status, r.change?.seq])).toEqual([
        [201, head + 1],
        [201, head + 2],
      ])
    })

    it('writeMany with an Idempotency-Key writes the batch once, also under concurrent repeats', async () => {
      const ctx = { user: 'alice', idempotencyKey: 'batch-1', requestHash: 'hb' }
      const batch = () =>
        store.writeMany(
          [
            { op: 'create' as const, collection: 'once', body: { n: 1 } },
            { op: 'create' as const, collection: 'once', body: { n: 2 } },
          ],
          ctx,
        )
      const all = await Promise.all(Array.from({ length: 6 }, batch))
      expect((await store.list('once')).total).toBe(2)
      expect(all.filter((r) => !r[0]!.replayed)).toHaveLength(1)
      const first = all.find((r) => !r[0]!.replayed)!
      for (const r of all) {
        expect(r.map((x) => x.body)).toEqual(first.map((x) => x.body))
        expect(r.map((x) => x.status)).toEqual([201, 201])
      }
      await expect(store.writeMany([], { ...ctx, requestHash: 'other' })).rejects.toMatchObject({
        status: 400,
        message: SERVER_TEXT.idempotencyMismatch,
      })
      // The same key by another user is another request.
      await store.writeMany([{ op: 'create', collection: 'once', body: {} }], { ...ctx, user: 'bob' })
      expect((await store.list('once')).total).toBe(3)
    })

    it('writeEach commits each entry with its own key and rolls back only a refused one', async () => {
      await store.write({ op: 'create', collection: 'each', id: 'x', body: { v: 1 } }, user)
      const head = await store.headSeq()
      const out = await store.writeEach([
        {
          write: { op: 'create', collection: 'each', id: 'a', body: {} },
          ctx: { ...user, idempotencyKey: 'e-a' },
        },
        { write: { op: 'patch', collection: 'each', id: 'x', body: { v: 9 }, expectedRev: 7 }, ctx: user },
        {
          write: { op: 'create', collection: 'each', id: 'x', body: {} },
          ctx: { ...user, idempotencyKey: 'e-x' },
        },
        { write: { op: 'patch', collection: 'each', id: 'x', body: { v: 2 }, expectedRev: 1 }, ctx: user },
        { write: { op: 'delete', collection: 'each', id: 'gone' }, ctx: user },
        {
          write: { op: 'create', collection: 'each', id: 'b', body: {} },
          ctx: { ...user, idempotencyKey: 'e-b' },
        },
      ])
      expect(out.map((o) => (o.ok ? o.result.status : (o.error as { status: number }).status))).toEqual([
        201, 409, 409, 200, 404, 201,
      ])
      expect(out[1]).toMatchObject({ ok: false, error: { details: { current: { _id: 'x', _rev: 1 } } } })
      // Gap-free: the refused entries took no seq.
      const log = await logAfter(store, head)
      expect(log.map((c) => [c.seq - head, c.id, c.idempotencyKey])).toEqual([
        [1, 'a', 'e-a'],
        [2, 'x', null],
        [3, 'b', 'e-b'],
      ])
      expect(await store.get('each', 'x')).toMatchObject({ _rev: 2, v: 2 })
      // A refused entry stored no answer for its key; a committed one replays.
      const again = await store.writeEach([
        {
          write: { op: 'create', collection: 'each', id: 'a', body: {} },
          ctx: { ...user, idempotencyKey: 'e-a' },
        },
        {
          write: { op: 'create', collection: 'each', id: 'y', body: {} },
          ctx: { ...user, idempotencyKey: 'e-x' },
        },
      ])
      expect(again.map((o) => o.ok && o.result.replayed)).toEqual([true, false])
    })

    it('concurrent writers never make a concurrent reader skip a seq', async () => {
      const second = await b.open()
      others.push(second)
      const head = await store.headSeq()
      const writers = 6
      const each = 15
      let writing = true
      const seen: number[] = []
      const reader = (async () => {
        let cursor = head
        for (;;) {
          const stillWriting = writing
          const page = await store.changes(cursor, 4)
          seen.push(...page.changes.map((c) => c.seq))
          cursor = page.cursor
          if (!page.more && !stillWriting) return
          await new Promise((r) => setImmediate(r))
        }
      })()
      await Promise.all(
        Array.from({ length: writers }, async (_, w) => {
          const target = w % 2 ? second : store
          for (let i = 0; i < each; i++) {
            await target.write({ op: 'put', collection: 'race', id: `w${w}`, body: { i } }, user)
          }
        }),
      )
      writing = false
      await reader
      const total = writers * each
      expect(seen).toEqual(Array.from({ length: total }, (_, i) => head + 1 + i))
      for (let w = 0; w < writers; w++) expect((await store.get('race', `w${w}`))?._rev).toBe(each)
    })

    it('answers the query subset of docs/operating/query.md', async () => {
      await store.writeMany(
        queryDocs.map(([id, body]) => ({ op: 'put' as const, collection: 'q', id, body })),
        user,
      )
      const ids = async (filter: Filter) =>
        (await store.list('q', { filter, limit: 1000 })).items.map((d) => d._id).sort()
      for (const [filter, expected] of queryCases) {
        expect(await ids(filter), JSON.stringify(filter)).toEqual([...expected].sort())
      }
      expect(await store.query('q', { operand: 'count', filter: { age: { $gte: 30 } } })).toBe(3)
      await expect(store.list('q', { filter: { $where: 'x' } })).rejects.toMatchObject({ status: 400 })
      await expect(store.list('q', { filter: { name: { $regex: '(a' } } })).rejects.toMatchObject({
        status: 400,
      })
    })

    const hostileIds = async (filter: Filter) =>
      (await store.list('hostile', { filter, limit: 10 })).items.map((d) => d._id).sort()
    const seedHostile = () =>
      store.writeMany(
        hostileDocs.map(([id, body]) => ({ op: 'put' as const, collection: 'hostile', id, body })),
        user,
      )

    it('answers pathological $regex patterns in linear time, and keeps answering (issue 10)', async () => {
      await seedHostile()
      for (const [filter, expected] of hostileRegexCases) {
        expect(await hostileIds(filter), JSON.stringify(filter)).toEqual([...expected].sort())
      }
      // The store keeps answering other calls while the hostile ones run.
      const [head, ...answers] = await Promise.all([
        store.headSeq(),
        ...hostileRegexCases.map(([f]) => hostileIds(f)),
      ])
      expect(typeof head).toBe('number')
      expect(answers).toEqual(hostileRegexCases.map(([, expected]) => [...expected].sort()))
      // What RE2 cannot run in linear time is refused alike on every store.
      for (const pattern of ['(a)\\1', 'a(?=b)', 'a(?!b)', '(?<=a)b', '(?<!a)b']) {
        await expect(store.list('hostile', { filter: { line: { $regex: pattern } } })).rejects.toMatchObject({
          status: 400,
        })
      }
    })

    it('answers $in, $nin and $all of 1,000 values (issue 10)', async () => {
      await seedHostile()
      for (const [filter, expected] of longListCases) {
        expect(await hostileIds(filter), JSON.stringify(filter).slice(0, 80)).toEqual([...expected].sort())
      }
    })

    it('stores and queries documents nested MAX_DOCUMENT_DEPTH deep, and refuses deeper (issue 10)', async () => {
      // A document at MAX_DOCUMENT_DEPTH is stored and queried; one level more is refused (400).
      let deep: Record<string, unknown> = { leaf: true }
      for (let i = 1; i < MAX_DOCUMENT_DEPTH; i++) deep = { a: deep }
      await store.write({ op: 'put', collection: 'deep', id: 'ok', body: deep }, user)
      await expect(
        store.write({ op: 'put', collection: 'deep', id: 'no', body: { a: deep } }, user),
      ).rejects.toMatchObject({ status: 400 })
      await expect(
        store.write({ op: 'patch', collection: 'deep', id: 'ok', body: { b: { a: deep } } }, user),
      ).rejects.toMatchObject({ status: 400 })
      const found = await store.list('deep', { filter: { 'a.a.a': { $exists: true } } })
      expect(found.items.map((d) => d._id)).toEqual(['ok'])
    })

    it('sorts across types like MongoDB, pages stably, and answers raw find and distinct', async () => {
      const c = 'sorted'
      const values: Array<[string, unknown]> = [
        ['s1', 'b'],
        ['n1', 10],
        ['t1', true],
        ['o1', { a: 1 }],
        ['a1', [1]],
        ['z1', null],
        ['n2', 2.5],
        ['s2', 'B'],
        ['m1', undefined],
        ['n3', 10],
      ]
      await store.writeMany(
        values.map(([id, v]) => ({
          op: 'put' as const,
          collection: c,
          id,
          body: v === undefined ? {} : { v },
        })),
        user,
      )
      const asc = (await store.list(c, { sort: [['v', 1]] })).items.map((d) => d._id)
      expect(asc).toEqual(['m1', 'z1', 'n2', 'n1', 'n3', 's2', 's1', 'o1', 'a1', 't1'])
      const desc = (await store.list(c, { sort: [['v', -1]] })).items.map((d) => d._id)
      expect(desc).toEqual(['t1', 'a1', 'o1', 's1', 's2', 'n1', 'n3', 'n2', 'm1', 'z1'])
      const page = await store.list(c, { sort: [['v', 1]], limit: 3, offset: 2 })
      expect(page).toMatchObject({ total: 10 })
      expect(page.items.map((d) => d._id)).toEqual(['n2', 'n1', 'n3'])
      await expect(store.list(c, { filter: { v: { $type: 'string' } } })).rejects.toMatchObject({
        status: 400,
      })
      const top = (await store.query(c, { operand: 'find', sort: { _id: -1 }, limit: 2, skip: 1 })) as Array<{
        _id: string
      }>
      expect(top.map((d) => d._id)).toEqual(['t1', 's2'])
      const distinct = await store.query(c, { operand: 'distinct', field: 'v' })
      expect(distinct).toEqual([null, 1, 2.5, 10, 'B', 'b', { a: 1 }, true])
    })

    it('lists collections with counts, skipping internal ones, optionally under a prefix', async () => {
      await store.write({ op: 'put', collection: 'data/alpha', id: '1', body: {} }, user)
      await store.write({ op: 'put', collection: 'data/alpha', id: '2', body: {} }, user)
      await store.write({ op: 'put', collection: 'data/beta', id: '1', body: {} }, user)
      await store.write({ op: 'put', collection: '_internal', id: '1', body: {} }, user)
      expect(await store.collections('data/')).toEqual([
        { name: 'data/alpha', count: 2 },
        { name: 'data/beta', count: 1 },
      ])
      const all = (await store.collections()).map((c) => c.name)
      expect(all).toContain('things')
      expect(all).not.toContain('_internal')
      expect(await store.collections('data/al%')).toEqual([])
    })

    it('clear deletes a collection leaving one tombstone per document', async () => {
      await store.writeMany(
        ['c', 'a', 'b'].map((id) => ({ op: 'put' as const, collection: 'gone', id, body: { id } })),
        user,
      )
      await store.write({ op: 'put', collection: 'gone', id: 'a', body: { again: true } }, user)
      const head = await store.headSeq()
      expect(await store.clear('gone', user)).toEqual({
        status: 200,
        body: { ok: true, deleted: 3 },
        replayed: false,
      })
      expect((await store.list('gone')).total).toBe(0)
      const log = await logAfter(store, head)
      expect(log.map((c) => [c.id, c.op, c.rev, c.doc])).toEqual([
        ['a', 'delete', 3, null],
        ['b', 'delete', 2, null],
        ['c', 'delete', 2, null],
      ])
      expect((await store.clear('gone', user)).body).toEqual({ ok: true, deleted: 0 })
    })

    // PostgreSQL sends the writes whose results nobody reads together, as one statement, before the
    // transaction's next read (postgres-deferred.ts): one row changed twice in one batch, a write read
    // back by the next entry, and more rows than one statement takes must all come out as written.
    it('a batch that changes one document again and again, then reads it, commits every step in order', async () => {
      const head = await store.headSeq()
      const results = await store.writeMany(
        [
          { op: 'create', collection: 'steps', id: 'p', body: { n: 0 } },
          { op: 'patch', collection: 'steps', id: 'p', body: { n: 1 }, expectedRev: 1 },
          { op: 'patch', collection: 'steps', id: 'p', body: { m: 2 }, expectedRev: 2 },
          { op: 'create', collection: 'steps', body: { fresh: true } },
          { op: 'put', collection: 'steps', id: 'p', body: { n: 3 }, expectedRev: 3 },
          { op: 'delete', collection: 'steps', id: 'p', expectedRev: 4 },
          { op: 'put', collection: 'steps', id: 'p', body: { back: true } },
        ],
        { ...user, idempotencyKey: 'steps-1' },
      )
      expect(results.map((r) => r.status)).toEqual([201, 200, 200, 201, 200, 200, 201])
      // A put after a delete starts the document again at revision 1.
      expect(await store.get('steps', 'p')).toMatchObject({ _rev: 1, back: true })
      const log = await logAfter(store, head)
      expect(log.map((c) => [c.seq - head, c.op, c.rev])).toEqual([
        [1, 'upsert', 1],
        [2, 'upsert', 2],
        [3, 'upsert', 3],
        [4, 'upsert', 1],
        [5, 'upsert', 4],
        [6, 'delete', 5],
        [7, 'upsert', 1],
      ])
      expect(log[2]!.doc).toMatchObject({ n: 1, m: 2 })
      const again = await store.writeMany([{ op: 'create', collection: 'steps', body: {} }], {
        ...user,
        idempotencyKey: 'steps-1',
      })
      expect(again.every((r) => r.replayed)).toBe(true)
      expect(await store.headSeq()).toBe(head + 7)
    })

    // Both stores commit single writes made at once together (SQLite per event-loop turn, PostgreSQL
    // those that arrive while its previous write transaction runs): each keeps its own answer.
    it('single writes made at once each get their own answer, in the order made, gap-free', async () => {
      await store.writeMany(
        ['g1', 'g2', 'g3', 'g4'].map((id) => ({ op: 'create' as const, collection: 'g', id, body: { id } })),
        user,
      )
      const head = await store.headSeq()
      const settled = await Promise.allSettled([
        store.write(
          { op: 'patch', collection: 'g', id: 'g1', body: { a: 1 }, expectedRev: 1 },
          { ...user, idempotencyKey: 'g-1' },
        ),
        store.write(
          { op: 'patch', collection: 'g', id: 'g1', body: { b: 2 }, expectedRev: 2 },
          { ...user, idempotencyKey: 'g-2' },
        ),
        store.write(
          { op: 'patch', collection: 'g', id: 'g2', body: { a: 1 }, expectedRev: 9 },
          { ...user, idempotencyKey: 'g-3' },
        ),
        store.write(
          { op: 'patch', collection: 'g', id: 'g3', body: { a: 1 }, expectedRev: 1 },
          { ...user, idempotencyKey: 'g-1' },
        ),
        store.write({ op: 'delete', collection: 'g', id: 'g4' }, user),
        store.write({ op: 'create', collection: 'g', body: { n: 1 } }, { ...user, idempotencyKey: 'g-5' }),
        store.write({ op: 'patch', collection: 'g', id: 'g1', body: { c: 3 }, expectedRev: 3 }, user),
      ])
      const answer = (s: PromiseSettledResult<WriteResult>) =>
        s.status === 'fulfilled'
          ? [s.value.status, (s.value.body as { _rev?: number })._rev, s.value.replayed]
          : [(s.reason as { status: number }).status]
      expect(settled.map(answer)).toEqual([
        [200, 2, false],
        [200, 3, false],
        [409],
        [200, 2, true], // the key's first answer, whatever the second request asked
        [200, 2, false],
        [201, 1, false],
        [200, 4, false],
      ])
      const log = await logAfter(store, head)
      expect(log.map((c) => [c.seq - head, c.id, c.rev])).toEqual([
        [1, 'g1', 2],
        [2, 'g1', 3],
        [3, 'g4', 2],
        [4, log[3]!.id, 1],
        [5, 'g1', 4],
      ])
      expect(await store.get('g', 'g1')).toMatchObject({ id: 'g1', a: 1, b: 2, c: 3, _rev: 4 })
      expect(await store.get('g', 'g2')).toMatchObject({ _rev: 1 })
      expect(await store.get('g', 'g3')).toMatchObject({ _rev: 1 })
    })

    it('writes and drops 8,000 documents in one transaction each, gap-free', async () => {
      // More parameters than one PostgreSQL statement takes (65,535), both ways.
      const head = await store.headSeq()
      const made = await store.writeMany(
        Array.from({ length: 8000 }, (_, i) => ({ op: 'create' as const, collection: 'many', body: { i } })),
        user,
      )
      expect(made.every((r) => r.status === 201)).toBe(true)
      expect((await store.list('many', { limit: 0 })).total).toBe(8000)
      expect(await store.clear('many', user)).toMatchObject({ body: { ok: true, deleted: 8000 } })
      const log = await changeLog(store, head, 1000)
      expect(log).toHaveLength(16_000)
      expect(log.every((c, i) => c.seq === head + 1 + i)).toBe(true)
      expect(log.filter((c) => c.op === 'delete')).toHaveLength(8000)
      expect((await store.list('many')).total).toBe(0)
    })

    it('clear lets a check refuse the whole drop, inside its transaction', async () => {
      await store.writeMany(
        ['x', 'vip'].map((id) => ({ op: 'put' as const, collection: 'guarded', id, body: {} })),
        user,
      )
      const head = await store.headSeq()
      const seen: string[][] = []
      const refuse = (ids: string[]) => {
        seen.push([...ids].sort())
        if (ids.includes('vip')) throw new Error('blocked')
      }
      await expect(store.clear('guarded', user, refuse)).rejects.toThrow('blocked')
      expect(seen).toEqual([['vip', 'x']])
      expect((await store.list('guarded')).total).toBe(2)
      expect(await store.headSeq()).toBe(head)
    })

    it('clear with an Idempotency-Key deletes once: a repeat replays and spares later documents', async () => {
      await store.write({ op: 'put', collection: 'dropped', id: 'old', body: {} }, user)
      const ctx = { user: 'alice', idempotencyKey: 'drop-1', requestHash: 'hd' }
      expect(await store.clear('dropped', ctx)).toMatchObject({
        body: { ok: true, deleted: 1 },
        replayed: false,
      })
      await store.write({ op: 'put', collection: 'dropped', id: 'new', body: {} }, user)
      const head = await store.headSeq()
      expect(await store.clear('dropped', ctx)).toEqual({
        status: 200,
        body: { ok: true, deleted: 1 },
        replayed: true,
      })
      expect(await store.get('dropped', 'new')).not.toBeNull()
      expect(await store.headSeq()).toBe(head)
      await expect(store.clear('dropped', { ...ctx, requestHash: 'other' })).rejects.toMatchObject({
        status: 400,
        message: SERVER_TEXT.idempotencyMismatch,
      })
    })

    it('keeps its epoch across reopening until resetEpoch', async () => {
      const epoch = await store.epoch()
      expect(epoch).toMatch(/^[0-9a-f-]{36}$/)
      const reopened = await b.open()
      others.push(reopened)
      expect(await reopened.epoch()).toBe(epoch)
      expect(await reopened.get('things', (await store.list('things')).items[0]!._id)).not.toBeNull()
      const next = await store.resetEpoch()
      expect(next).not.toBe(epoch)
      expect(await store.epoch()).toBe(next)
      expect(await reopened.epoch()).toBe(next)
    })

    it('keeps secrets apart from documents and the change log', async () => {
      const head = await store.headSeq()
      expect(await store.secrets.get('password', 'alice')).toBeNull()
      await store.secrets.set('password', 'alice', 'hash-1')
      await store.secrets.set('password', 'alice', 'hash-2')
      await store.secrets.set('totp', 'alice', 'other')
      expect(await store.secrets.get('password', 'alice')).toBe('hash-2')
      await store.secrets.delete('password', 'alice')
      expect(await store.secrets.get('password', 'alice')).toBeNull()
      expect(await store.secrets.get('totp', 'alice')).toBe('other')
      expect(await store.headSeq()).toBe(head)
    })

    it('claims a secret once: the first value stays, every claimer gets it', async () => {
      const claims = await Promise.all(['v1', 'v2', 'v3'].map((v) => store.secrets.claim('_claim', 'k', v)))
      expect(new Set(claims).size).toBe(1)
      expect(await store.secrets.get('_claim', 'k')).toBe(claims[0])
      expect(await store.secrets.claim('_claim', 'k', 'later')).toBe(claims[0])
    })

    it('calls onCommit after each commit with its changes in seq order', async () => {
      const calls: Change[][] = []
      const stop = store.onCommit((changes) => calls.push(changes))
      const failing = store.onCommit(() => {
        throw new Error('listener failure must not matter')
      })
      const head = await store.headSeq()
      const one = await store.write({ op: 'put', collection: 'live', id: 'a', body: {} }, user)
      // Delivered before write() resolves, as on SQLite.
      expect(calls.map((c) => c.map((ch) => ch.seq))).toEqual([[one.change!.seq]])
      await store.write({ op: 'put', collection: '_quiet', id: 'a', body: {} }, user)
      await store.writeMany(
        [
          { op: 'put', collection: 'live', id: 'b', body: {} },
          { op: 'delete', collection: 'live', id: 'a' },
        ],
        user,
      )
      await store.clear('live', user)
      stop()
      failing()
      await store.write({ op: 'put', collection: 'live', id: 'c', body: {} }, user)
      expect(calls.map((c) => c.map((ch) => [ch.seq, ch.id, ch.op]))).toEqual([
        [[head + 1, 'a', 'upsert']],
        [
          [head + 2, 'b', 'upsert'],
          [head + 3, 'a', 'delete'],
        ],
        [[head + 4, 'b', 'delete']],
      ])
    })

    if (kind === 'postgres') {
      it('a database error in one single write of a group fails that write only', async () => {
        // PostgreSQL refuses a NUL character in a text parameter (22021): not an ApiError.
        const settled = await Promise.allSettled([
          store.write({ op: 'create', collection: 'nul', id: 'first', body: {} }, user),
          store.write({ op: 'create', collection: 'nul', id: 'a', body: {} }, user),
          store.write({ op: 'create', collection: 'nul', id: 'b\u0000c', body: {} }, user),
          store.write({ op: 'create', collection: 'nul', id: 'd', body: {} }, user),
        ])
        expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled'])
        expect((await store.list('nul')).items.map((d) => d._id).sort()).toEqual(['a', 'd', 'first'])
      })

      it('fans commits out to every store instance on the database, in seq order', async () => {
        const a = store
        const other = await b.open()
        others.push(other)
        const onA: number[] = []
        const onB: number[] = []
        const stopA = a.onCommit((cs) => onA.push(...cs.map((c) => c.seq)))
        const stopB = other.onCommit((cs) => onB.push(...cs.map((c) => c.seq)))
        const head = await a.headSeq()
        const fromB = await other.write({ op: 'put', collection: 'fan', id: 'b', body: {} }, user)
        await vi.waitFor(() => expect(onA).toEqual([fromB.change!.seq]))
        await Promise.all(
          Array.from({ length: 10 }, (_, i) =>
            (i % 2 ? a : other).write({ op: 'put', collection: 'fan', id: `x${i}`, body: {} }, user),
          ),
        )
        const all = Array.from({ length: 11 }, (_, i) => head + 1 + i)
        await vi.waitFor(() => expect(onA).toEqual(all))
        await vi.waitFor(() => expect(onB).toEqual(all))
        stopA()
        stopB()
      })

      it('serves the real server from DATABASE_URL: login, a data write, then GET /api/sync', async () => {
        const app = await startTestServer({ databaseUrl: await server!.newDatabase() })
        try {
          expect(app.services.store.kind).toBe('postgres')
          const token = await app.login()
          const created = await app.api('/api/data/notes', { token, json: { title: 'from postgres' } })
          expect(created.status, created.text).toBe(201)
          const sync = await app.api('/api/sync?cursor=0&limit=500', { token })
          expect(sync.status, sync.text).toBe(200)
          const body = sync.body as { epoch: string; changes: Change[]; more: boolean }
          expect(body.epoch).toBeTruthy()
          const note = body.changes.find((c) => c.collection === 'data/notes')
          expect(note?.doc).toMatchObject({ title: 'from postgres', _rev: 1 })
        } finally {
          await app.close()
        }
      })
    }
  })
}
