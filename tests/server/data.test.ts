/**
 * The Database API against the real server: collections with counts, CRUD on documents, If-Match
 * (409 with the current document, never applied), Idempotency-Key (a replay writes once), list
 * parameters, name validation (including `../` smuggled in encoded), a drop that leaves tombstones, and
 * permissions per collection and per document.
 */
import http from 'node:http'
import { describe, expect, it } from 'vitest'
import type { Doc } from '../../src/server/store/types'
import { SERVER_TEXT } from '../../src/shared/texts'
import type { ApiInit } from '../helpers/server'
import { suiteServer } from '../helpers/suite-server'

const api = (path: string, init: ApiInit = {}) => server.api(path, { token: server.admin, ...init })
const stored = (collection: string, id: string) => server.services.store.get(`data/${collection}`, id)

/** fetch normalises `..` and `%2E%2E` away before sending; node:http sends the path as written. */
function rawGet(path: string): Promise<{ status: number; body: { message?: string } }> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(server.url)
    const headers = { authorization: `Bearer ${server.admin}` }
    const req = http.request({ hostname, port, path, headers }, (res) => {
      let text = ''
      res.on('data', (chunk) => {
        text += chunk
      })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }))
    })
    req.on('error', reject)
    req.end()
  })
}

const server = suiteServer()

describe('documents', () => {
  it('creates with or without an id, reads with an ETag, and refuses a duplicate id with the current doc', async () => {
    const made = await api('/api/data/notes', { json: { title: 'first', _rev: 99 } })
    expect(made.status).toBe(201)
    const doc = made.body as Doc
    expect(doc).toMatchObject({ title: 'first', _rev: 1, _updatedBy: 'admin' })
    expect(doc._id).toMatch(/^[a-z0-9]+$/)

    const named = await api('/api/data/notes', { json: { _id: 'n-1', title: 'named' } })
    expect(named.status).toBe(201)
    expect(named.headers.get('etag')).toBe('"1"')
    const again = await api('/api/data/notes', { json: { _id: 'n-1', title: 'other' } })
    expect(again.status).toBe(409)
    expect(again.body).toMatchObject({ error: 'conflict', current: { _id: 'n-1', title: 'named' } })
    const byPath = await api('/api/data/notes/n-2', { method: 'POST', json: { title: 'by path' } })
    expect(byPath.status).toBe(201)

    const read = await api('/api/data/notes/n-1')
    expect(read.status).toBe(200)
    expect(read.headers.get('etag')).toBe('"1"')
    expect(read.body).toMatchObject({ _id: 'n-1', title: 'named' })
    const missing = await api('/api/data/notes/nope')
    expect(missing.status).toBe(404)
    expect(missing.body).toEqual({ error: 'not_found', message: SERVER_TEXT.notFound })
  })

  it('PUT replaces (and creates when missing), PATCH merges, DELETE removes', async () => {
    await api('/api/data/notes', { json: { _id: 'p-1', title: 't', body: 'b', meta: { a: 1, b: 2 } } })
    const put = await api('/api/data/notes/p-1', { method: 'PUT', json: { title: 'replaced' } })
    expect(put.status).toBe(200)
    expect(put.body).toMatchObject({ _id: 'p-1', _rev: 2, title: 'replaced' })
    expect(put.body).not.toHaveProperty('body')
    const created = await api('/api/data/notes/p-new', { method: 'PUT', json: { title: 'new' } })
    expect(created.status).toBe(201)

    const patch = await api('/api/data/notes/p-1', {
      method: 'PATCH',
      json: { meta: { b: null, c: 3 }, x: 1 },
    })
    expect(patch.status).toBe(200)
    expect(patch.body).toMatchObject({ title: 'replaced', meta: { c: 3 }, x: 1, _rev: 3 })
    expect((await api('/api/data/notes/missing', { method: 'PATCH', json: { a: 1 } })).status).toBe(404)

    const del = await api('/api/data/notes/p-1', { method: 'DELETE' })
    expect(del.status).toBe(200)
    expect(del.body).toEqual({ ok: true, _id: 'p-1', _rev: 4 })
    expect(await stored('notes', 'p-1')).toBeNull()
    expect((await api('/api/data/notes/p-1', { method: 'DELETE' })).status).toBe(404)
  })

  it('refuses a body that is not an object and an invalid _id', async () => {
    expect((await api('/api/data/notes', { json: [1, 2] })).status).toBe(400)
    const badId = await api('/api/data/notes', { json: { _id: '../x', title: 'x' } })
    expect(badId.status).toBe(400)
    expect((badId.body as { message: string }).message).toBe(SERVER_TEXT.invalidId)
  })
})

describe('If-Match', () => {
  it('applies a write on the current revision and answers 409 with the current document otherwise', async () => {
    await api('/api/data/orders', { json: { _id: 'o-1', status: 'new' } })
    const ok = await api('/api/data/orders/o-1', {
      method: 'PATCH',
      json: { status: 'paid' },
      headers: { 'if-match': '"1"' },
    })
    expect(ok.status).toBe(200)
    expect(ok.headers.get('etag')).toBe('"2"')

    for (const [method, json] of [
      ['PATCH', { status: 'lost' }],
      ['PUT', { status: 'lost' }],
      ['DELETE', undefined],
    ] as const) {
      const stale = await api('/api/data/orders/o-1', { method, json, headers: { 'if-match': '1' } })
      expect(stale.status, method).toBe(409)
      expect(stale.body).toMatchObject({
        error: 'conflict',
        message: SERVER_TEXT.revMismatch,
        current: { _id: 'o-1', _rev: 2, status: 'paid' },
      })
    }
    expect(await stored('orders', 'o-1')).toMatchObject({ _rev: 2, status: 'paid' })
    const garbage = await api('/api/data/orders/o-1', {
      method: 'PATCH',
      json: { a: 1 },
      headers: { 'if-match': 'abc' },
    })
    expect(garbage.status).toBe(400)
    const gone = await api('/api/data/orders/o-404', {
      method: 'PUT',
      json: { a: 1 },
      headers: { 'if-match': '1' },
    })
    expect(gone.status).toBe(404)
    expect(await stored('orders', 'o-404')).toBeNull()
    const del = await api('/api/data/orders/o-1', { method: 'DELETE', headers: { 'if-match': '2' } })
    expect(del.status).toBe(200)
  })
})

describe('Idempotency-Key', () => {
  it('answers a replay with the stored response and writes once', async () => {
    const init = { json: { title: 'once' }, headers: { 'idempotency-key': 'k-create-1' } }
    const first = await api('/api/data/journal', init)
    const second = await api('/api/data/journal', init)
    expect(first.status).toBe(201)
    expect(second.status).toBe(201)
    expect(second.headers.get('idempotent-replayed')).toBe('true')
    expect(second.body).toEqual(first.body)
    const list = await api('/api/data/journal')
    expect(list.headers.get('x-total-count')).toBe('1')

    const id = (first.body as Doc)._id
    const patch = { method: 'PATCH', json: { n: 1 }, headers: { 'idempotency-key': 'k-patch-1' } }
    await api(`/api/data/journal/${id}`, patch)
    const replay = await api(`/api/data/journal/${id}`, patch)
    expect(replay.body).toMatchObject({ _rev: 2 })
    expect(await stored('journal', id)).toMatchObject({ _rev: 2 })

    const reused = await api('/api/data/journal', {
      json: { title: 'different' },
      headers: { 'idempotency-key': 'k-create-1' },
    })
    expect(reused.status).toBe(400)
    expect((reused.body as { message: string }).message).toBe(SERVER_TEXT.idempotencyMismatch)
  })
})

describe('lists', () => {
  it('filters, sorts and pages with X-Total-Count, and refuses a bad filter', async () => {
    const writes = Array.from({ length: 12 }, (_, i) => ({
      op: 'create' as const,
      collection: 'data/items',
      id: `i-${String(i).padStart(2, '0')}`,
      body: { n: i, even: i % 2 === 0 },
    }))
    await server.services.store.writeMany(writes, { user: null })
    const filter = encodeURIComponent(JSON.stringify({ even: true, n: { $gte: 2 } }))
    const res = await api(`/api/data/items?filter=${filter}&sort=-n&limit=2&offset=1`)
    expect(res.status).toBe(200)
    expect(res.headers.get('x-total-count')).toBe('5')
    expect((res.body as Doc[]).map((d) => d.n)).toEqual([8, 6])
    expect((await api('/api/data/items?filter=%7Bbad')).status).toBe(400)
    const where = encodeURIComponent(JSON.stringify({ $where: 'true' }))
    expect((await api(`/api/data/items?filter=${where}`)).status).toBe(400)
  })

  it('GET /api/data lists the collections with counts', async () => {
    const res = await api('/api/data')
    expect(res.status).toBe(200)
    expect(res.body).toEqual(expect.arrayContaining([{ name: 'items', count: 12 }]))
  })
})

describe('names', () => {
  it('refuses invalid collection names and ids, including ../ in any encoding', async () => {
    await server.services.store.write(
      { op: 'create', collection: 'data/secret', id: 's-1', body: { code: 42 } },
      { user: null },
    )
    const badCollections = [
      '..%2Fsecret',
      '..%5Csecret',
      'notes%2F..%2Fsecret',
      '_hidden',
      'a%20b',
      'x'.repeat(65),
      'caf%C3%A9',
    ]
    for (const name of badCollections) {
      for (const method of ['GET', 'POST', 'DELETE']) {
        const res = await api(`/api/data/${name}`, { method, json: method === 'POST' ? { a: 1 } : undefined })
        expect(res.status, `${method} ${name}`).toBe(400)
        expect((res.body as { message: string }).message).toBe(SERVER_TEXT.invalidCollection)
      }
    }
    for (const path of [
      '/api/data/../secret',
      '/api/data/%2E%2E',
      '/api/data/%2e%2e/s-1',
      '/api/data/secret/..',
      '/api/data/secret/.',
    ]) {
      const res = await rawGet(path)
      expect(res.status, path).toBe(400)
      expect([SERVER_TEXT.invalidCollection, SERVER_TEXT.invalidId]).toContain(res.body.message)
    }
    for (const id of ['..%2F', 'a%2Fb', 'a%5Cb', 'x'.repeat(129)]) {
      const res = await api(`/api/data/notes/${id}`, { method: 'PUT', json: { a: 1 } })
      expect(res.status, id).toBe(400)
      expect((res.body as { message: string }).message).toBe(SERVER_TEXT.invalidId)
    }
    expect(await server.services.store.get('data/secret', 's-1')).toMatchObject({ code: 42, _rev: 1 })
  })
})

describe('drop', () => {
  it('deletes every document and leaves a tombstone for each in the change log', async () => {
    const { store } = server.services
    await store.writeMany(
      ['a', 'b', 'c'].map((id) => ({ op: 'create' as const, collection: 'data/scratch', id, body: { id } })),
      { user: null },
    )
    const head = await store.headSeq()
    const res = await api('/api/data/scratch', { method: 'DELETE' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ ok: true, deleted: 3 })
    expect((await api('/api/data/scratch')).body).toEqual([])
    const { changes } = await store.changes(head, 100)
    const tombstones = changes.filter((c) => c.collection === 'data/scratch')
    expect(tombstones.map((c) => [c.id, c.op, c.doc])).toEqual([
      ['a', 'delete', null],
      ['b', 'delete', null],
      ['c', 'delete', null],
    ])
    expect((await api('/api/data')).body).not.toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'scratch' })]),
    )
  })
})

describe('permissions', () => {
  it('data/contacts:r reads contacts only, and writes nothing', async () => {
    const { store } = server.services
    await store.write(
      { op: 'create', collection: 'data/contacts', id: 'c-1', body: { name: 'C' } },
      { user: null },
    )
    const reader = await server.userWith('reader', ['data/contacts:r'])
    const as = (path: string, init: ApiInit = {}) => server.api(path, { token: reader, ...init })

    expect((await as('/api/data')).body).toEqual([{ name: 'contacts', count: 1 }])
    expect((await as('/api/data/contacts')).status).toBe(200)
    expect((await as('/api/data/contacts/c-1')).status).toBe(200)
    const secret = await as('/api/data/secret')
    expect(secret.status).toBe(403)
    expect((secret.body as { message: string }).message).toBe('Requires one of: data/secret:r')
    expect((await as('/api/data/secret/s-1')).status).toBe(403)
    expect((await as('/api/data/contacts', { json: { name: 'x' } })).status).toBe(403)
    expect((await as('/api/data/contacts/c-1', { method: 'PATCH', json: { name: 'x' } })).status).toBe(403)
    expect((await as('/api/data/contacts', { method: 'DELETE' })).status).toBe(403)
    expect(await store.get('data/contacts', 'c-1')).toMatchObject({ name: 'C', _rev: 1 })
    expect((await server.api('/api/data/contacts')).status).toBe(401)
  })

  it('PUT that would create needs the create permission too', async () => {
    const editor = await server.userWith('editor', ['data/contacts:ru'])
    const create = await server.api('/api/data/contacts/c-new', {
      method: 'PUT',
      json: { a: 1 },
      token: editor,
    })
    expect(create.status).toBe(403)
    expect(await server.services.store.get('data/contacts', 'c-new')).toBeNull()
    const update = await server.api('/api/data/contacts/c-1', {
      method: 'PUT',
      json: { name: 'D' },
      token: editor,
    })
    expect(update.status).toBe(200)
  })

  it('a grant on one document hides it from reads, lists and conflict answers', async () => {
    const narrowed = await server.userWith('narrowed', ['data/contacts:crud', 'data/contacts/c-1:n'])
    const as = (path: string, init: ApiInit = {}) => server.api(path, { token: narrowed, ...init })
    expect((await as('/api/data/contacts/c-1')).status).toBe(403)
    expect((await as('/api/data/contacts')).body).toEqual([])
    const clash = await as('/api/data/contacts', { json: { _id: 'c-1', name: 'x' } })
    expect(clash.status).toBe(409)
    expect(clash.body).not.toHaveProperty('current')
  })
})
