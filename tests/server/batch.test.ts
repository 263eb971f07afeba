/**
 * POST /api/batch against the real server (issue 11): many data writes in one transaction with a
 * result per entry. A stale If-Match fails only its entry (409 with the current document) while the
 * others commit; an entry without permission is 403 alone; an entry's Idempotency-Key replays its
 * stored answer (also when the retry goes to the single route); the cap is 400; anything but data
 * documents is refused per entry.
 */
import { describe, expect, it } from 'vitest'
import type { BatchResult } from '../../src/server/data/batch-routes'
import { keyForReader } from '../../src/server/http/idempotency'
import type { Doc } from '../../src/server/store/types'
import { BATCH_MAX_MUTATIONS } from '../../src/shared/constants'
import { BATCH_TEXT, requiresOneOf } from '../../src/shared/texts'
import type { ApiInit } from '../helpers/server'
import { suiteServer } from '../helpers/suite-server'

const api = (path: string, init: ApiInit = {}) => server.api(path, { token: server.admin, ...init })
const batch = async (mutations: unknown[], token = server.admin) => {
  const res = await server.api('/api/batch', { token, json: { mutations } })
  return { status: res.status, body: res.body as { results: BatchResult[]; message?: string } }
}
const stored = (collection: string, id: string) => server.services.store.get(`data/${collection}`, id)

const server = suiteServer()

describe('POST /api/batch', () => {
  it('applies create / put / patch / delete in order, each with its own status and body', async () => {
    await api('/api/data/b1', { json: { _id: 'old', n: 0 } })
    const { status, body } = await batch([
      { method: 'POST', path: '/api/data/b1', body: { _id: 'a', n: 1 }, idempotencyKey: 'k-a' },
      { method: 'POST', path: '/api/data/b1/b', body: { n: 2 } },
      { method: 'PUT', path: '/api/data/b1/c', body: { n: 3 } },
      { method: 'PATCH', path: '/api/data/b1/a', body: { m: 1 }, ifMatch: 1 },
      { method: 'DELETE', path: '/api/data/b1/old', ifMatch: '"1"' },
    ])
    expect(status).toBe(200)
    expect(body.results.map((r) => r.status)).toEqual([201, 201, 201, 200, 200])
    expect(body.results[3]!.body).toMatchObject({ _id: 'a', _rev: 2, n: 1, m: 1, _updatedBy: 'admin' })
    expect(body.results[4]!.body).toEqual({ ok: true, _id: 'old', _rev: 2 })
    expect(await stored('b1', 'old')).toBeNull()
    expect(await stored('b1', 'c')).toMatchObject({ n: 3 })
  })

  it('a stale If-Match is a 409 for that entry only; the others commit', async () => {
    await api('/api/data/b2', { json: { _id: 'x', v: 1 } })
    await api('/api/data/b2/x', { method: 'PATCH', json: { v: 2 } })
    const { body } = await batch([
      { method: 'POST', path: '/api/data/b2', body: { _id: 'before' }, idempotencyKey: 'c-1' },
      { method: 'PATCH', path: '/api/data/b2/x', body: { v: 9 }, ifMatch: 1, idempotencyKey: 'c-2' },
      { method: 'POST', path: '/api/data/b2', body: { _id: 'after' }, idempotencyKey: 'c-3' },
    ])
    expect(body.results.map((r) => r.status)).toEqual([201, 409, 201])
    expect(body.results[1]!.body).toMatchObject({ error: 'conflict', current: { _id: 'x', _rev: 2, v: 2 } })
    expect(await stored('b2', 'x')).toMatchObject({ _rev: 2, v: 2 })
    expect(await stored('b2', 'before')).not.toBeNull()
    expect(await stored('b2', 'after')).not.toBeNull()
    // The change log carries each committed entry's own key (stored under the caller's credential,
    // http/idempotency.ts), and nothing for the refused one.
    const page = await server.services.store.changes(0, 1000)
    const keys = page.changes
      .filter((c) => c.collection === 'data/b2')
      .map((c) => keyForReader(c.idempotencyKey, 'admin'))
    expect(keys).toEqual([null, null, 'c-1', 'c-3'])
  })

  it('checks each entry against the caller permissions: 403 alone, never weaker than the single routes', async () => {
    const carol = await server.userWith('carol-b', ['data/open:crud', 'data/open/vip:n'])
    const { body } = await batch(
      [
        { method: 'POST', path: '/api/data/open', body: { _id: 'fine' } },
        { method: 'POST', path: '/api/data/closed', body: { _id: 'nope' } },
        { method: 'POST', path: '/api/data/open', body: { _id: 'vip' } },
        { method: 'DELETE', path: '/api/data/open/fine' },
      ],
      carol,
    )
    expect(body.results.map((r) => r.status)).toEqual([201, 403, 403, 200])
    expect(body.results[1]!.body).toEqual({ error: 'forbidden', message: requiresOneOf(['data/closed:c']) })
    expect(await stored('closed', 'nope')).toBeNull()
    expect(await stored('open', 'vip')).toBeNull()
    const reader = await server.userWith('reader-b', ['data/open:r'])
    const refused = await batch([{ method: 'PATCH', path: '/api/data/open/fine', body: { x: 1 } }], reader)
    expect(refused.body.results[0]!.status).toBe(403)
    // No session at all: the request itself is refused.
    expect((await server.api('/api/batch', { json: { mutations: [] } })).status).toBe(401)
  })

  it('replays an entry whose key was answered, from a batch or from the single route', async () => {
    const entry = { method: 'POST', path: '/api/data/b3', body: { _id: 'r', n: 1 }, idempotencyKey: 'rep-1' }
    const first = await batch([entry])
    expect(first.body.results[0]).toMatchObject({ status: 201, body: { _id: 'r', _rev: 1 } })
    const again = await batch([entry, { method: 'PATCH', path: '/api/data/b3/r', body: { n: 2 } }])
    expect(again.body.results[0]).toEqual({ ...first.body.results[0], replayed: true })
    expect(again.body.results[1]!.status).toBe(200)
    // The same request sent singly (the engine falls back to it) is recognised as the same write.
    const single = await api('/api/data/b3', { json: entry.body, headers: { 'idempotency-key': 'rep-1' } })
    expect(single.status).toBe(201)
    expect(single.headers.get('idempotent-replayed')).toBe('true')
    // The key with another body is refused for that entry.
    const reused = await batch([{ ...entry, body: { _id: 'r', n: 5 } }])
    expect(reused.body.results[0]!.status).toBe(400)
    expect(await stored('b3', 'r')).toMatchObject({ _rev: 2, n: 2 })
  })

  it('refuses an empty or over-cap batch (400) and unsupported entries one by one', async () => {
    const over = Array.from({ length: BATCH_MAX_MUTATIONS + 1 }, (_, i) => ({
      method: 'POST',
      path: '/api/data/b4',
      body: { _id: `o${i}` },
    }))
    const tooMany = await batch(over)
    expect(tooMany.status).toBe(400)
    expect(tooMany.body.message).toBe(BATCH_TEXT.tooMany(BATCH_MAX_MUTATIONS))
    expect((await server.services.store.list('data/b4')).total).toBe(0)
    expect((await batch([])).status).toBe(400)
    expect((await server.api('/api/batch', { token: server.admin, json: { nope: 1 } })).status).toBe(400)

    const { body } = await batch([
      { method: 'POST', path: '/api/users', body: { _id: 'mallory' } },
      { method: 'DELETE', path: '/api/data/b4' },
      { method: 'POST', path: '/api/data/b4/..%2Fx', body: {} },
      { method: 'PATCH', path: '/api/data/b4/y', body: 'text' },
      { method: 'PATCH', path: '/api/data/b4/missing', body: { a: 1 } },
      { method: 'POST', path: '/api/data/b4', body: { _id: 'ok' } },
    ])
    expect(body.results.map((r) => r.status)).toEqual([400, 400, 400, 400, 404, 201])
    expect(await server.services.store.get('users', 'mallory')).toBeNull()
  })

  it('a 409 on a create hides the current document from a caller who may not read it', async () => {
    await api('/api/data/b5', { json: { _id: 'secret', s: 1 } })
    const writer = await server.userWith('writer-b', ['data/b5:c'])
    const { body } = await batch([{ method: 'POST', path: '/api/data/b5', body: { _id: 'secret' } }], writer)
    expect(body.results[0]!.status).toBe(409)
    expect((body.results[0]!.body as { current?: Doc }).current).toBeUndefined()
  })
})
