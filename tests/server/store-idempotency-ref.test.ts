/**
 * The SQLite store's idempotency records of document writes (issue 20): a record names the write's
 * change row instead of holding a copy of the document, and a replay still answers the very text of
 * the first answer, whatever happened to the document since. Records of databases made before the
 * column keep answering. Real SQLite in a temp dir.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openSqliteStore } from '../../src/server/store/sqlite'
import type { DocumentStore } from '../../src/server/store/types'

let dir: string
let file: string
let store: DocumentStore | null

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'momentum-idem-ref-'))
  file = path.join(dir, 'store.db')
  store = null
})

afterEach(async () => {
  await store?.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

const ctx = (key: string, requestHash = 'h') => ({ user: 'alice', idempotencyKey: key, requestHash })

/** The stored idempotency rows, read through a second connection. */
function records(): Array<{ key: string; body: string | null; change_seq: number | null }> {
  const db = new Database(file, { readonly: true })
  try {
    return db
      .prepare<[], { key: string; body: string | null; change_seq: number | null }>(
        'SELECT key, body, change_seq FROM idempotency ORDER BY key',
      )
      .all()
  } finally {
    db.close()
  }
}

describe('idempotency records of document writes', () => {
  it('name the change row instead of copying the document, and replay the first answer', async () => {
    store = openSqliteStore(file)
    const created = await store.write(
      { op: 'create', collection: 'things', id: 'a', body: { v: 1 } },
      ctx('c'),
    )
    const patched = await store.write(
      { op: 'patch', collection: 'things', id: 'a', body: { v: 2 }, expectedRev: 1 },
      ctx('p'),
    )
    const deleted = await store.write(
      { op: 'delete', collection: 'things', id: 'a', expectedRev: 2 },
      ctx('d'),
    )
    expect(records()).toEqual([
      { key: 'c', body: null, change_seq: created.change!.seq },
      { key: 'd', body: null, change_seq: deleted.change!.seq },
      { key: 'p', body: null, change_seq: patched.change!.seq },
    ])
    // The document is gone now, yet each repeat answers what its first request was answered.
    for (const [key, first] of [
      ['c', created],
      ['p', patched],
      ['d', deleted],
    ] as const) {
      const again = await store.write({ op: 'patch', collection: 'things', id: 'a', body: {} }, ctx(key))
      expect(again).toEqual({ status: first.status, body: first.body, replayed: true })
    }
    expect(deleted.body).toEqual({ ok: true, _id: 'a', _rev: 3 })
    expect(await store.getIdempotent('p', 'alice')).toEqual({
      status: 200,
      body: patched.body,
      requestHash: 'h',
    })
    // Another request under a used key is still refused.
    await expect(
      store.write({ op: 'create', collection: 'things', id: 'b', body: {} }, ctx('c', 'other')),
    ).rejects.toMatchObject({ status: 400 })
  })

  it('keep an internal write apart from the document write committed in the same group', async () => {
    store = openSqliteStore(file)
    const [doc, internal] = await Promise.all([
      store.write({ op: 'create', collection: 'things', id: 'a', body: { v: 1 } }, ctx('doc')),
      store.write({ op: 'create', collection: '_internal', id: 'x', body: { secret: 1 } }, ctx('int')),
    ])
    // An internal write logs no change: its answer is copied, never the other write's change.
    expect(internal.change).toBeUndefined()
    expect(records().find((r) => r.key === 'int')).toMatchObject({ change_seq: null })
    const again = await store.write({ op: 'create', collection: '_internal', id: 'x', body: {} }, ctx('int'))
    expect(again).toMatchObject({ status: 201, replayed: true, body: internal.body })
    expect(again.body).not.toEqual(doc.body)
  })

  it('keep answering from a database made before the records named change rows', async () => {
    const old = new Database(file)
    old.exec(`CREATE TABLE idempotency (
      key TEXT NOT NULL, user TEXT NOT NULL, request_hash TEXT NOT NULL, status INTEGER NOT NULL, body TEXT,
      created TEXT NOT NULL, PRIMARY KEY (key, user)) WITHOUT ROWID`)
    const answer = { _id: 'a', _rev: 1, v: 1 }
    old
      .prepare('INSERT INTO idempotency VALUES (?, ?, ?, ?, ?, ?)')
      .run('old', 'alice', 'h', 201, JSON.stringify(answer), new Date().toISOString())
    old.close()
    store = openSqliteStore(file)
    const again = await store.write(
      { op: 'create', collection: 'things', id: 'a', body: { v: 1 } },
      ctx('old'),
    )
    expect(again).toMatchObject({ status: 201, body: answer, replayed: true })
    expect(await store.get('things', 'a')).toBeNull()
    const fresh = await store.write({ op: 'create', collection: 'things', id: 'b', body: {} }, ctx('new'))
    expect(records().find((r) => r.key === 'new')).toEqual({
      key: 'new',
      body: null,
      change_seq: fresh.change!.seq,
    })
  })
})
