/**
 * A batch entry is answered exactly as its single request (issue 37: one definition of each data-write
 * rule, src/server/data/write-rules.ts). The same writes go to two servers set up alike: to one as
 * single requests, to the other as batch entries, one entry a batch so each sees the state the one
 * before left. Every answer (status, body, replay marker) must match, refusals and acceptances alike,
 * and so must the documents left behind. Only the times a server stamps on a document are set aside.
 *
 * The last test pins the two answers that differ on purpose, so that changing one is a decision.
 */
import { describe, expect, it } from 'vitest'
import type { BatchResult } from '../../src/server/data/batch-routes'
import { requiresOneOf, SERVER_TEXT } from '../../src/shared/texts'
import type { SuiteServer } from '../helpers/suite-server'
import { suiteServer } from '../helpers/suite-server'

interface Step {
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  path: string
  body?: unknown
  ifMatch?: string
  key?: string
}

interface Answer {
  status: number
  body: unknown
  replayed: boolean
}

const singles = suiteServer()
const batches = suiteServer()

const PERMISSIONS = ['data/p:ru', 'data/w:cu', 'data/w/vip:n']

/** The stamped times differ between two servers by nature; everything else must not. */
function untimed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(untimed)
  if (!value || typeof value !== 'object') return value
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(value))
    out[k] = k === '_created' || k === '_updated' ? 'time' : untimed(v)
  return out
}

async function prepare(server: SuiteServer): Promise<string> {
  const { store } = server.services
  await store.write({ op: 'put', collection: 'data/p', id: 'a', body: { v: 1 } }, { user: null })
  await store.write({ op: 'put', collection: 'data/w', id: 'secret', body: { s: 1 } }, { user: null })
  return server.userWith('pat', PERMISSIONS)
}

async function sendSingle(server: SuiteServer, token: string, step: Step): Promise<Answer> {
  const headers: Record<string, string> = {}
  if (step.ifMatch !== undefined) headers['if-match'] = step.ifMatch
  if (step.key !== undefined) headers['idempotency-key'] = step.key
  const res = await server.api(step.path, { method: step.method, token, json: step.body, headers })
  return {
    status: res.status,
    body: untimed(res.body),
    replayed: res.headers.get('idempotent-replayed') === 'true',
  }
}

async function sendEntry(server: SuiteServer, token: string, step: Step): Promise<Answer> {
  const entry = {
    method: step.method,
    path: step.path,
    body: step.body,
    ifMatch: step.ifMatch,
    idempotencyKey: step.key,
  }
  const res = await server.api('/api/batch', { token, json: { mutations: [entry] } })
  expect(res.status, res.text).toBe(200)
  const [result] = (res.body as { results: BatchResult[] }).results
  return { status: result!.status, body: untimed(result!.body), replayed: result!.replayed === true }
}

async function stored(server: SuiteServer): Promise<unknown> {
  const { store } = server.services
  const docs = [...(await store.list('data/p')).items, ...(await store.list('data/w')).items]
  return untimed(docs)
}

// Each with the status it gets today, so a match on both sides cannot hide a change on both.
const STEPS: Array<[string, number, Step]> = [
  ['a delete without the d right', 403, { method: 'DELETE', path: '/api/data/p/a' }],
  [
    'a write with no right on the collection',
    403,
    { method: 'PATCH', path: '/api/data/q/a', body: { x: 1 } },
  ],
  ['a PUT that would create, without c', 403, { method: 'PUT', path: '/api/data/p/new', body: { v: 1 } }],
  ['a PUT that replaces', 200, { method: 'PUT', path: '/api/data/p/a', body: { v: 2 } }],
  [
    'a stale If-Match, readable',
    409,
    { method: 'PATCH', path: '/api/data/p/a', body: { v: 3 }, ifMatch: '1' },
  ],
  [
    'an If-Match that is no revision',
    400,
    { method: 'PATCH', path: '/api/data/p/a', body: {}, ifMatch: 'x' },
  ],
  ['a body that is no object', 400, { method: 'PATCH', path: '/api/data/p/a', body: 'text' }],
  [
    'a stale If-Match on an unreadable document',
    409,
    {
      method: 'PATCH',
      path: '/api/data/w/secret',
      body: { s: 2 },
      ifMatch: '"5"',
    },
  ],
  [
    'a create on an unreadable id that exists',
    409,
    { method: 'POST', path: '/api/data/w', body: { _id: 'secret' } },
  ],
  ['a patch of a missing document', 404, { method: 'PATCH', path: '/api/data/w/missing', body: { s: 1 } }],
  ['a write to a blocked document', 403, { method: 'PUT', path: '/api/data/w/vip', body: { v: 1 } }],
  ['a PUT that creates, with c', 201, { method: 'PUT', path: '/api/data/w/fresh', body: { n: 1 } }],
  ['a bad id in the path', 400, { method: 'PATCH', path: '/api/data/w/..%2Fx', body: {} }],
  ['a bad id in the body', 400, { method: 'POST', path: '/api/data/w', body: { _id: 'no spaces' } }],
  ['a bad collection name', 400, { method: 'POST', path: '/api/data/bad.name', body: {} }],
  ['a keyed create', 201, { method: 'POST', path: '/api/data/w', body: { _id: 'k', n: 1 }, key: 'key-1' }],
  [
    'the same key again: replayed',
    201,
    { method: 'POST', path: '/api/data/w', body: { _id: 'k', n: 1 }, key: 'key-1' },
  ],
  [
    'the same key, another body',
    400,
    { method: 'POST', path: '/api/data/w', body: { _id: 'k', n: 2 }, key: 'key-1' },
  ],
  ['a keyed delete without d', 403, { method: 'DELETE', path: '/api/data/w/k', key: 'key-2' }],
]

describe('a batch entry and its single request', () => {
  it('get the same answer for each refused and accepted write, and leave the same documents', async () => {
    const singleToken = await prepare(singles)
    const batchToken = await prepare(batches)
    for (const [what, status, step] of STEPS) {
      const single = await sendSingle(singles, singleToken, step)
      const entry = await sendEntry(batches, batchToken, step)
      expect(entry, what).toEqual(single)
      expect(single.status, what).toBe(status)
    }
    expect(await stored(batches)).toEqual(await stored(singles))
  })

  it('hide the current document of an unreadable conflict, show a readable one, replay with a marker', async () => {
    const token = await singles.login('pat', 'pat-pw')
    const hidden = await sendEntry(batches, await batches.login('pat', 'pat-pw'), STEPS[7]![2])
    expect(hidden.body).toEqual({ error: 'conflict', message: expect.any(String) })
    const readable = await sendSingle(singles, token, STEPS[4]![2])
    expect(readable.body).toMatchObject({ error: 'conflict', current: { _id: 'a', v: 2 } })
    const replay = await sendSingle(singles, token, STEPS[16]![2])
    expect(replay).toMatchObject({ status: 201, replayed: true, body: { _id: 'k', n: 1 } })
    expect((await sendSingle(singles, token, STEPS[12]![2])).body).toEqual({
      error: 'bad_request',
      message: SERVER_TEXT.invalidId,
    })
    expect((await sendSingle(singles, token, STEPS[2]![2])).body).toEqual({
      error: 'forbidden',
      message: requiresOneOf(['data/p/new:c']),
    })
  })

  it('differ where the single route checks its permission before it reads the body, as before', async () => {
    const single = await singles.login('pat', 'pat-pw')
    const batch = await batches.login('pat', 'pat-pw')
    // No right and a bad If-Match: the single route's guard refuses first, the entry is planned first.
    const step: Step = { method: 'DELETE', path: '/api/data/p/a', ifMatch: 'x' }
    expect((await sendSingle(singles, single, step)).status).toBe(403)
    expect((await sendEntry(batches, batch, step)).status).toBe(400)
    // A create naming a blocked id in its body: the entry also needs `data/w/vip:c`.
    const named: Step = { method: 'POST', path: '/api/data/w', body: { _id: 'vip' } }
    expect((await sendEntry(batches, batch, named)).body).toEqual({
      error: 'forbidden',
      message: requiresOneOf(['data/w/vip:c']),
    })
    expect((await sendSingle(singles, single, named)).status).toBe(201)
  })
})
