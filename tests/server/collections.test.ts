/**
 * The ten collection modules (SPEC §7) against the real server: CRUD on every module, list query
 * parameters, If-Match, Idempotency-Key, tombstones and the module-specific refusals.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { keyForReader } from '../../src/server/http/idempotency'
import type { Change, Doc } from '../../src/server/store/types'
import { LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX, MODULES } from '../../src/shared/constants'
import { COLLECTION_TEXT, SERVER_TEXT } from '../../src/shared/texts'
import { suiteServer } from '../helpers/suite-server'

const server = suiteServer()

/** Every change the store logged after `seq`. */
async function changesAfter(seq: number): Promise<Change[]> {
  return (await server.services.store.changes(seq, 10_000)).changes
}

const sampleBody = (module: string): Record<string, unknown> =>
  module === 'groups'
    ? { name: 'Sample', permissions: ['products:r'] }
    : module === 'actions' // validated (issue 15): a trigger and code are required
      ? { name: 'Sample', n: 1, trigger: { type: 'GET' }, code: 'return 1' }
      : module === 'schemas' // validated (issue 17): a JSON Schema in `schema`, the id a collection path
        ? { name: 'Sample', n: 1, schema: { type: 'object' } }
        : module === 'forms' // validated (issue 17): a title, a data/ target, who may fill, fields
          ? { name: 'Sample', n: 1, title: 'Sample', target: 'data/sample', fill: 'link', fields: [] }
          : { name: 'Sample', n: 1 }

// Transactions are written by the payment routes only (POST/PATCH 405, DELETE refunds):
// tests/server/payments*.test.ts.
describe.each(MODULES.filter((m) => m !== 'transactions'))('/api/%s CRUD', (module) => {
  const id = `crud-${module}`

  it('creates, reads, lists, patches and deletes a document, leaving a tombstone', async () => {
    const before = await server.services.store.headSeq()
    const created = await server.api(`/api/${module}`, {
      json: { _id: id, ...sampleBody(module) },
      token: server.admin,
    })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({ _id: id, _rev: 1, name: 'Sample', _updatedBy: 'admin' })
    expect(created.headers.get('etag')).toBe('"1"')

    const read = await server.api(`/api/${module}/${id}`, { token: server.admin })
    expect(read.status).toBe(200)
    expect(read.body).toMatchObject({ _id: id, name: 'Sample' })
    expect(read.headers.get('etag')).toBe('"1"')

    const list = await server.api(
      `/api/${module}?filter=${encodeURIComponent(JSON.stringify({ name: 'Sample' }))}`,
      {
        token: server.admin,
      },
    )
    expect(list.status).toBe(200)
    expect((list.body as Doc[]).map((d) => d._id)).toContain(id)
    expect(Number(list.headers.get('x-total-count'))).toBe((list.body as Doc[]).length)

    const patched = await server.api(`/api/${module}/${id}`, {
      method: 'PATCH',
      json: { name: 'Renamed', n: null, extra: { deep: true } },
      token: server.admin,
      headers: { 'if-match': '"1"' },
    })
    expect(patched.status).toBe(200)
    expect(patched.body).toMatchObject({ _id: id, _rev: 2, name: 'Renamed', extra: { deep: true } })
    expect(patched.body).not.toHaveProperty('n')
    expect(patched.headers.get('etag')).toBe('"2"')

    const deleted = await server.api(`/api/${module}/${id}`, {
      method: 'DELETE',
      token: server.admin,
      headers: { 'if-match': '2' },
    })
    expect(deleted.status).toBe(200)
    expect(deleted.body).toEqual({ ok: true, _id: id, _rev: 3 })
    expect((await server.api(`/api/${module}/${id}`, { token: server.admin })).status).toBe(404)

    const log = (await changesAfter(before)).filter((c) => c.collection === module && c.id === id)
    expect(log.map((c) => [c.op, c.rev])).toEqual([
      ['upsert', 1],
      ['upsert', 2],
      ['delete', 3],
    ])
    expect(log[2]!.doc).toBeNull()
  })

  it('answers 404 for a missing id, 409 for an existing one, and 400 for an invalid one', async () => {
    expect((await server.api(`/api/${module}/nope-${module}`, { token: server.admin })).status).toBe(404)
    const patch = await server.api(`/api/${module}/nope-${module}`, {
      method: 'PATCH',
      json: {},
      token: server.admin,
    })
    expect(patch.status).toBe(404)

    const dup = `dup-${module}`
    expect(
      (await server.api(`/api/${module}`, { json: { _id: dup, ...sampleBody(module) }, token: server.admin }))
        .status,
    ).toBe(201)
    const again = await server.api(`/api/${module}`, {
      json: { _id: dup, ...sampleBody(module), other: 1 },
      token: server.admin,
    })
    expect(again.status).toBe(409)
    expect(again.body).toMatchObject({
      error: 'conflict',
      message: SERVER_TEXT.alreadyExists,
      current: { _id: dup, _rev: 1 },
    })
    expect((await server.services.store.get(module, dup))?.other).toBeUndefined()

    for (const bad of ['a/b', '..', '', 'x'.repeat(129), 42, 'spa ce']) {
      const res = await server.api(`/api/${module}`, { json: { _id: bad, name: 'x' }, token: server.admin })
      expect(res.status, String(bad)).toBe(400)
      expect(res.body).toEqual({ error: 'bad_request', message: SERVER_TEXT.invalidId })
    }
  })
})

describe('create without an id', () => {
  it('generates a time-ordered id', async () => {
    const a = await server.api('/api/products', { json: { name: 'auto A' }, token: server.admin })
    const b = await server.api('/api/products', { json: { name: 'auto B' }, token: server.admin })
    expect(a.status).toBe(201)
    const [ida, idb] = [(a.body as Doc)._id, (b.body as Doc)._id]
    expect(ida < idb).toBe(true)
    expect((await server.api(`/api/products/${ida}`, { token: server.admin })).body).toMatchObject({
      name: 'auto A',
    })
  })

  it('never lets a client set server fields', async () => {
    const res = await server.api('/api/products', {
      json: { _id: 'meta-try', _rev: 99, _created: '1999', _updatedBy: 'mallory', name: 'x' },
      token: server.admin,
    })
    expect(res.body).toMatchObject({ _id: 'meta-try', _rev: 1, _updatedBy: 'admin' })
    expect((res.body as Doc)._created).not.toBe('1999')
  })
})

describe('list query parameters', () => {
  beforeAll(async () => {
    for (let i = 1; i <= 12; i++) {
      await server.services.store.write(
        {
          op: 'create',
          collection: 'discounts',
          id: `L${String(i).padStart(2, '0')}`,
          body: { percent: (i * 7) % 13, kind: i % 2 ? 'odd' : 'even', tag: i <= 6 ? 'low' : 'high' },
        },
        { user: null },
      )
    }
  })
  const ids = (body: unknown) => (body as Doc[]).map((d) => d._id)
  const q = (params: Record<string, string>) => `/api/discounts?${new URLSearchParams(params)}`

  it('filters with a JSON filter and reports the total', async () => {
    const res = await server.api(q({ filter: JSON.stringify({ kind: 'odd', tag: 'low' }) }), {
      token: server.admin,
    })
    expect(res.status).toBe(200)
    expect(ids(res.body)).toEqual(['L01', 'L03', 'L05'])
    expect(res.headers.get('x-total-count')).toBe('3')
  })

  it('sorts by several fields, descending with a minus', async () => {
    const res = await server.api(q({ filter: JSON.stringify({ tag: 'low' }), sort: 'kind,-percent' }), {
      token: server.admin,
    })
    const docs = res.body as Array<Doc & { kind: string; percent: number }>
    expect(docs.map((d) => d.kind)).toEqual(['even', 'even', 'even', 'odd', 'odd', 'odd'])
    const even = docs.slice(0, 3).map((d) => d.percent)
    expect(even).toEqual([...even].sort((a, b) => b - a))
    const byId = await server.api(q({ filter: JSON.stringify({ tag: 'high' }), sort: '-_id' }), {
      token: server.admin,
    })
    expect(ids(byId.body)).toEqual(['L12', 'L11', 'L10', 'L09', 'L08', 'L07'])
  })

  it('pages with limit and offset while X-Total-Count stays the full match', async () => {
    const page = await server.api(q({ filter: JSON.stringify({ kind: 'even' }), limit: '2', offset: '1' }), {
      token: server.admin,
    })
    expect(ids(page.body)).toEqual(['L04', 'L06'])
    expect(page.headers.get('x-total-count')).toBe('6')
    const countOnly = await server.api(q({ limit: '0' }), { token: server.admin })
    expect(countOnly.body).toEqual([])
    expect(Number(countOnly.headers.get('x-total-count'))).toBeGreaterThanOrEqual(12)
  })

  it(`defaults to ${LIST_LIMIT_DEFAULT} documents and never returns more than ${LIST_LIMIT_MAX}`, async () => {
    await server.services.store.writeMany(
      Array.from({ length: LIST_LIMIT_MAX + 5 }, (_, i) => ({
        op: 'create' as const,
        collection: 'forms',
        id: `bulk-${String(i).padStart(5, '0')}`,
        body: { i },
      })),
      { user: null },
    )
    const first = await server.api('/api/forms', { token: server.admin })
    expect((first.body as Doc[]).length).toBe(LIST_LIMIT_DEFAULT)
    expect(Number(first.headers.get('x-total-count'))).toBeGreaterThanOrEqual(LIST_LIMIT_MAX + 5)
    const big = await server.api(`/api/forms?limit=${LIST_LIMIT_MAX * 10}`, { token: server.admin })
    expect((big.body as Doc[]).length).toBe(LIST_LIMIT_MAX)
  })

  it('refuses malformed parameters with 400 instead of ignoring them', async () => {
    for (const params of <Array<Record<string, string>>>[
      { filter: '{not json' },
      { filter: '[1,2]' },
      { filter: '"text"' },
      { sort: 'a,,b' },
      { sort: 'na"me' },
      { limit: '-1' },
      { limit: 'ten' },
      { offset: '1.5' },
    ]) {
      const res = await server.api(q(params), { token: server.admin })
      expect(res.status, JSON.stringify(params)).toBe(400)
      expect((res.body as { error: string }).error).toBe('bad_request')
    }
    const twice = await server.api('/api/discounts?limit=1&limit=2', { token: server.admin })
    expect(twice.status).toBe(400)
  })
})

describe('If-Match', () => {
  it('refuses a stale revision with 409 and the current document, and applies nothing', async () => {
    await server.api('/api/products', { json: { _id: 'im-1', name: 'v1' }, token: server.admin })
    await server.api('/api/products/im-1', { method: 'PATCH', json: { name: 'v2' }, token: server.admin })
    const before = await server.services.store.headSeq()

    const stale = await server.api('/api/products/im-1', {
      method: 'PATCH',
      json: { name: 'mine' },
      token: server.admin,
      headers: { 'if-match': '"1"' },
    })
    expect(stale.status).toBe(409)
    expect(stale.body).toMatchObject({
      error: 'conflict',
      message: SERVER_TEXT.revMismatch,
      current: { _id: 'im-1', _rev: 2, name: 'v2' },
    })
    const staleDelete = await server.api('/api/products/im-1', {
      method: 'DELETE',
      token: server.admin,
      headers: { 'if-match': '1' },
    })
    expect(staleDelete.status).toBe(409)
    expect(staleDelete.body).toMatchObject({ current: { _rev: 2 } })

    expect(await server.services.store.headSeq()).toBe(before)
    expect(await server.services.store.get('products', 'im-1')).toMatchObject({ _rev: 2, name: 'v2' })
  })

  it('refuses an If-Match that is not a revision', async () => {
    const res = await server.api('/api/products/im-1', {
      method: 'PATCH',
      json: { name: 'x' },
      token: server.admin,
      headers: { 'if-match': 'abc' },
    })
    expect(res.status).toBe(400)
  })

  it('answers 304 to a read whose If-None-Match is current', async () => {
    const res = await server.api('/api/products/im-1', {
      token: server.admin,
      headers: { 'if-none-match': '"2"' },
    })
    expect(res.status).toBe(304)
  })
})

describe('Idempotency-Key', () => {
  it('replays the first response and writes once', async () => {
    const before = await server.services.store.headSeq()
    const send = () =>
      server.api('/api/groups', {
        json: { _id: 'idem-1', trigger: 'CRON' },
        token: server.admin,
        headers: { 'idempotency-key': 'k-create-1' },
      })
    const first = await send()
    const second = await send()
    expect(first.status).toBe(201)
    expect(second.status).toBe(201)
    expect(second.body).toEqual(first.body)
    expect(second.headers.get('idempotent-replayed')).toBe('true')
    const log = (await changesAfter(before)).filter((c) => c.id === 'idem-1')
    expect(log).toHaveLength(1)
    expect(keyForReader(log[0]!.idempotencyKey, 'admin')).toBe('k-create-1')

    const patch = () =>
      server.api('/api/groups/idem-1', {
        method: 'PATCH',
        json: { count: 1 },
        token: server.admin,
        headers: { 'idempotency-key': 'k-patch-1' },
      })
    const p1 = await patch()
    const p2 = await patch()
    expect(p2.body).toEqual(p1.body)
    expect((await server.services.store.get('groups', 'idem-1'))?._rev).toBe(2)
  })

  it('refuses a key reused for a different body and writes nothing', async () => {
    await server.api('/api/groups', {
      json: { _id: 'idem-2' },
      token: server.admin,
      headers: { 'idempotency-key': 'k-reuse' },
    })
    const before = await server.services.store.headSeq()
    const reused = await server.api('/api/groups', {
      json: { _id: 'idem-3' },
      token: server.admin,
      headers: { 'idempotency-key': 'k-reuse' },
    })
    expect(reused.status).toBe(400)
    expect(reused.body).toMatchObject({ message: SERVER_TEXT.idempotencyMismatch })
    expect(await server.services.store.headSeq()).toBe(before)
    expect(await server.services.store.get('groups', 'idem-3')).toBeNull()
  })

  it('replays a delete', async () => {
    await server.api('/api/tokens', { json: { _id: 'idem-del' }, token: server.admin })
    const del = () =>
      server.api('/api/tokens/idem-del', {
        method: 'DELETE',
        token: server.admin,
        headers: { 'idempotency-key': 'k-del' },
      })
    const first = await del()
    const second = await del()
    expect(first.status).toBe(200)
    expect(second.status).toBe(200)
    expect(second.body).toEqual(first.body)
  })
})

describe('groups', () => {
  it('refuses permissions that do not parse, so a typo never silently grants nothing', async () => {
    for (const permissions of [['users'], ['users:x'], 'users:r', [42], ['users:rn']]) {
      const res = await server.api('/api/groups', {
        json: { _id: 'bad-perms', permissions },
        token: server.admin,
      })
      expect(res.status, JSON.stringify(permissions)).toBe(400)
    }
    const bad = await server.api('/api/groups', {
      json: { _id: 'bad-perms', permissions: 'x' },
      token: server.admin,
    })
    expect(bad.body).toMatchObject({ message: COLLECTION_TEXT.permissionsInvalid })
    expect(await server.services.store.get('groups', 'bad-perms')).toBeNull()
    const ok = await server.api('/api/groups', {
      json: { _id: 'good-perms', permissions: ['users:r', 'data/*:cru', 'users/admin:n'] },
      token: server.admin,
    })
    expect(ok.status).toBe(201)
  })
})
