/**
 * The SQLite store's kept document texts (issue 20, store/hot-docs.ts): a document read twice is
 * answered from memory the second time, and no write path can leave an old text there. Each case reads
 * first (so the text is kept), changes the row through one of the store's write paths, and reads again;
 * the database file itself is read beside it through a second connection, so a kept text that differs
 * from the committed row fails the test. Real SQLite in a temp dir.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { hotDocs } from '../../src/server/store/hot-docs'
import { openSqliteStore } from '../../src/server/store/sqlite'
import type { DocumentStore } from '../../src/server/store/types'

let dir: string
let file: string
let store: DocumentStore
let direct: Database.Database

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'momentum-hot-'))
  file = path.join(dir, 'store.db')
  store = openSqliteStore(file)
  direct = new Database(file, { readonly: true })
  await store.writeMany(
    ['a', 'b'].map((id) => ({ op: 'create' as const, collection: 'data/t', id, body: { n: 1 } })),
    user,
  )
})

afterEach(async () => {
  direct.close()
  await store.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

const user = { user: 'alice' }

/** What the store answers for a read, beside what the committed row holds. */
async function both(id: string) {
  const answered = await store.getJson!('data/t', id)
  const row = direct
    .prepare('SELECT rev, body FROM docs WHERE collection = ? AND id = ?')
    .get('data/t', id) as { rev: number; body: string } | undefined
  return { answered, committed: row ? { rev: row.rev, json: row.body } : null }
}

async function expectCurrent(id: string, rev: number | null) {
  // Twice: the first may fill the kept text, the second is answered from it.
  for (let i = 0; i < 2; i++) {
    const { answered, committed } = await both(id)
    expect(answered).toEqual(committed)
    expect(answered?.rev ?? null).toBe(rev)
  }
}

describe('kept document texts', () => {
  it('answers a repeated read from memory, with the row as committed', async () => {
    const first = await store.getJson!('data/t', 'a')
    expect(first).toMatchObject({ rev: 1 })
    expect(JSON.parse(first!.json)).toMatchObject({ _id: 'a', n: 1, _rev: 1 })
    // The same object: kept, not read again.
    expect(await store.getJson!('data/t', 'a')).toBe(first)
  })

  it('single writes (patch, put, delete, create again) are seen at once', async () => {
    await expectCurrent('a', 1)
    await store.write({ op: 'patch', collection: 'data/t', id: 'a', body: { n: 2 } }, user)
    await expectCurrent('a', 2)
    await store.write({ op: 'put', collection: 'data/t', id: 'a', body: { m: 3 } }, user)
    await expectCurrent('a', 3)
    expect(JSON.parse((await store.getJson!('data/t', 'a'))!.json)).not.toHaveProperty('n')
    await store.write({ op: 'delete', collection: 'data/t', id: 'a' }, user)
    await expectCurrent('a', null)
    await store.write({ op: 'create', collection: 'data/t', id: 'a', body: { again: true } }, user)
    await expectCurrent('a', 1)
  })

  it('the writes of one turn, committed together, leave the last one', async () => {
    await expectCurrent('a', 1)
    await Promise.all([
      store.write({ op: 'patch', collection: 'data/t', id: 'a', body: { n: 2 } }, user),
      store.write({ op: 'patch', collection: 'data/t', id: 'a', body: { n: 3 } }, user),
    ])
    await expectCurrent('a', 3)
    expect(JSON.parse((await store.getJson!('data/t', 'a'))!.json)).toMatchObject({ n: 3 })
  })

  it('a batch that fails after changing a row leaves the old text, and the row agrees', async () => {
    await expectCurrent('a', 1)
    await expect(
      store.writeMany(
        [
          { op: 'patch', collection: 'data/t', id: 'a', body: { n: 99 } },
          { op: 'patch', collection: 'data/t', id: 'missing', body: {} },
        ],
        user,
      ),
    ).rejects.toMatchObject({ status: 404 })
    await expectCurrent('a', 1)
    expect(JSON.parse((await store.getJson!('data/t', 'a'))!.json)).toMatchObject({ n: 1 })
  })

  it('keeps what a COMMIT wrote: the next read and the next write of it run no SELECT', async () => {
    // Statement is one class for every connection: this counts the store's own row reads.
    const Statement = Object.getPrototypeOf(direct.prepare('SELECT 1')) as {
      get: (...a: unknown[]) => unknown
    }
    const spy = vi.spyOn(Statement, 'get')
    const rowReads = () => spy.mock.calls.length
    try {
      const written = await store.write({ op: 'patch', collection: 'data/t', id: 'a', body: { n: 2 } }, user)
      let before = rowReads()
      const kept = await store.getJson!('data/t', 'a')
      expect(rowReads() - before).toBe(0)
      expect(kept).toEqual({ rev: 2, json: written.json })
      // A write reads the current document inside its transaction: from the kept text as well.
      await store.write({ op: 'patch', collection: 'data/t', id: 'a', body: { n: 3 } }, user)
      before = rowReads()
      expect(JSON.parse((await store.getJson!('data/t', 'a'))!.json)).toMatchObject({ n: 3, _rev: 3 })
      expect(rowReads() - before).toBe(0)
    } finally {
      spy.mockRestore()
    }
    await expectCurrent('a', 3)
  })

  it('batches with an outcome per entry and clearing a collection are seen at once', async () => {
    await expectCurrent('a', 1)
    await expectCurrent('b', 1)
    await store.writeEach([
      { write: { op: 'patch', collection: 'data/t', id: 'a', body: { n: 5 } }, ctx: user },
      { write: { op: 'patch', collection: 'data/t', id: 'missing', body: {} }, ctx: user },
    ])
    await expectCurrent('a', 2)
    await store.clear('data/t', user)
    await expectCurrent('a', null)
    await expectCurrent('b', null)
  })
})

describe('hotDocs', () => {
  it('keeps at most its budget of characters, dropping the oldest first', () => {
    const hot = hotDocs(10)
    hot.set('c', 'x', { rev: 1, json: '12345' })
    hot.set('c', 'y', { rev: 1, json: '12345' })
    hot.set('c', 'z', { rev: 1, json: '123' })
    expect(hot.get('c', 'x')).toBeUndefined()
    expect(hot.get('c', 'y')?.json).toBe('12345')
    expect(hot.get('c', 'z')?.json).toBe('123')
    // Larger than the whole budget: not kept, and nothing else is pushed out for it.
    hot.set('c', 'big', { rev: 1, json: '12345678901' })
    expect(hot.get('c', 'big')).toBeUndefined()
    expect(hot.get('c', 'y')).toBeDefined()
  })

  it('never confuses two (collection, id) pairs that spell the same text', () => {
    const hot = hotDocs(100)
    hot.set('ab', 'c', { rev: 1, json: '"ab/c"' })
    expect(hot.get('a', 'bc')).toBeUndefined()
    hot.set('a', 'bc', { rev: 2, json: '"a/bc"' })
    expect(hot.get('ab', 'c')?.json).toBe('"ab/c"')
    hot.drop('a', 'bc')
    expect(hot.get('ab', 'c')).toBeDefined()
  })
})
