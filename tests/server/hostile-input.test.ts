/**
 * Hostile input against the real server: broken and oversized bodies, path traversal in ids, operator
 * and SQL injection through list parameters, non-object bodies, prototype pollution. Each must get a
 * clear 4xx `{error, message}` — never a 500 — and leave the data exactly as it was.
 */
import http from 'node:http'
import { beforeAll, describe, expect, it } from 'vitest'
import { BODY_LIMIT_BYTES, MAX_DOCUMENT_DEPTH } from '../../src/shared/constants'
import { SERVER_TEXT } from '../../src/shared/texts'
import { suiteServer } from '../helpers/suite-server'

const server = suiteServer()
beforeAll(async () => {
  for (const id of ['alpha', 'beta', 'gamma']) {
    await server.api('/api/products', { json: { _id: id, name: id, price: 100 }, token: server.admin })
  }
})

/** Everything a hostile request could have touched: the change log head and the documents. */
async function snapshot() {
  const { store } = server.services
  const docs: Record<string, unknown> = {}
  for (const module of ['products', 'users', 'groups', 'settings']) {
    docs[module] = (await store.list(module, { limit: 10_000 })).items
  }
  return { head: await store.headSeq(), docs }
}

/**
 * A request whose path is sent byte for byte: fetch would resolve `..` segments before sending, which
 * is exactly what a hostile client does not do.
 */
function raw(method: string, path: string, body?: string, contentType = 'application/json') {
  return new Promise<{ status: number; body: { error?: string; message?: string } }>((resolve, reject) => {
    const url = new URL(server.url)
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        method,
        path,
        headers: {
          authorization: `Bearer ${server.admin}`,
          ...(body !== undefined
            ? { 'content-type': contentType, 'content-length': Buffer.byteLength(body) }
            : {}),
        },
      },
      (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (c) => {
          text += c
        })
        res.on('end', () => {
          let parsed = {}
          try {
            parsed = text ? JSON.parse(text) : {}
          } catch {
            parsed = { message: text }
          }
          resolve({ status: res.statusCode ?? 0, body: parsed })
        })
      },
    )
    req.on('error', reject)
    if (body !== undefined) req.write(body)
    req.end()
  })
}

/** An object nested `depth` levels deep: {a: {a: … {leaf: true}}}. */
function nest(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = { leaf: true }
  for (let i = 1; i < depth; i++) value = { a: value }
  return value
}

function expectClientError(
  res: { status: number; body: { error?: string; message?: string } },
  status = 400,
) {
  expect(res.status).toBe(status)
  expect(typeof res.body.error).toBe('string')
  expect(typeof res.body.message).toBe('string')
}

describe('hostile input leaves the data unchanged', () => {
  it('invalid JSON → 400', async () => {
    const before = await snapshot()
    for (const [method, path] of [
      ['POST', '/api/products'],
      ['PATCH', '/api/products/alpha'],
      ['POST', '/api/users'],
    ]) {
      for (const body of ['{"name":', "{'single':1}", '{"a":1}}', 'NaN', '']) {
        const res = await raw(method!, path!, body)
        expectClientError(res)
        expect(res.body.message).toBe(SERVER_TEXT.invalidJson)
      }
    }
    expect(await snapshot()).toEqual(before)
  })

  it(`a body over ${BODY_LIMIT_BYTES} bytes → 413`, async () => {
    const before = await snapshot()
    const big = JSON.stringify({ _id: 'huge', blob: 'x'.repeat(BODY_LIMIT_BYTES) })
    const res = await server.api('/api/products', { json: JSON.parse(big), token: server.admin })
    expect(res.status).toBe(413)
    expect(res.body).toEqual({ error: 'payload_too_large', message: SERVER_TEXT.bodyTooLarge })
    const patch = await raw('PATCH', '/api/products/alpha', big)
    expect(patch.status).toBe(413)
    expect(await snapshot()).toEqual(before)
  })

  it('path traversal in ids → 400, encoded or not', async () => {
    const before = await snapshot()
    for (const id of [
      '..',
      '%2e%2e',
      '%2e%2e%2f',
      '..%2f..%2fetc%2fpasswd',
      '%2E%2E%2Fadmin',
      '..%5c..%5cx',
      'a%00b',
    ]) {
      for (const [method, path, body] of [
        ['GET', `/api/products/${id}`, undefined],
        ['PATCH', `/api/products/${id}`, '{"name":"pwned"}'],
        ['DELETE', `/api/products/${id}`, undefined],
        ['GET', `/api/users/${id}/image`, undefined],
        ['PATCH', `/api/users/${id}`, '{"name":"pwned"}'],
      ] as const) {
        const res = await raw(method, path, body)
        expect(res.status, `${method} ${path}`).toBe(400)
        expect(res.body).toEqual({ error: 'bad_request', message: SERVER_TEXT.invalidId })
      }
    }
    for (const _id of ['../x', '..\\x', '../../etc/passwd', '/abs', 'a/b', '.', 'nul\u0000l']) {
      const res = await server.api('/api/products', { json: { _id, name: 'pwned' }, token: server.admin })
      expect(res.status, _id).toBe(400)
    }
    // Broken percent-encoding is refused before routing.
    for (const id of ['%zz', '%', '%E0%A4%A']) {
      const res = await raw('PATCH', `/api/products/${id}`, '{"name":"pwned"}')
      expect(res.status, id).toBe(400)
      expect(res.body.error, id).toBe('bad_request')
    }
    // A literal ../ climbs out of the route entirely: it must land on no write route.
    for (const path of ['/api/products/../users/admin', '/api/users/../products/alpha']) {
      const res = await raw('PATCH', path, '{"name":"pwned"}')
      expect(res.status, path).toBeGreaterThanOrEqual(400)
      expect(res.status, path).toBeLessThan(500)
    }
    expect(await snapshot()).toEqual(before)
  })

  it('operator and SQL injection through filter and sort → 400', async () => {
    const before = await snapshot()
    const filters: unknown[] = [
      { $where: 'sleep(1000)' },
      { $function: { body: 'return true' } },
      { name: { $where: '1' } },
      { 'na"me': 'alpha' },
      { "name')--": 1 },
      { "x') OR 1=1 --": 1 },
      { 'name; DROP TABLE docs': 1 },
      { '$.name': 'alpha' },
      { 'name[0]': 1 },
      { '': 1 },
    ]
    for (const filter of filters) {
      const res = await server.api(`/api/products?filter=${encodeURIComponent(JSON.stringify(filter))}`, {
        token: server.admin,
      })
      expect(res.status, JSON.stringify(filter)).toBe(400)
      expect((res.body as { error: string }).error).toBe('bad_request')
    }
    for (const sort of ["name') --", 'name"', '-$where', 'name;DROP', '(select 1)']) {
      const res = await server.api(`/api/products?sort=${encodeURIComponent(sort)}`, { token: server.admin })
      expect(res.status, sort).toBe(400)
    }
    // A quoted value is only ever a value: it matches nothing and breaks nothing.
    const value = await server.api(
      `/api/products?filter=${encodeURIComponent(JSON.stringify({ name: "alpha' OR '1'='1" }))}`,
      { token: server.admin },
    )
    expect(value.status).toBe(200)
    expect(value.body).toEqual([])
    expect(await snapshot()).toEqual(before)
    expect((await server.api('/api/products', { token: server.admin })).headers.get('x-total-count')).toBe(
      '3',
    )
  })

  it('non-object bodies → 400', async () => {
    const before = await snapshot()
    for (const body of ['[]', '[{"_id":"x"}]', '"text"', '42', 'null', 'true']) {
      for (const [method, path] of [
        ['POST', '/api/products'],
        ['PATCH', '/api/products/alpha'],
        ['POST', '/api/groups'],
        ['PATCH', '/api/settings/title'],
      ]) {
        const res = await raw(method!, path!, body)
        expect(res.status, `${method} ${path} ${body}`).toBe(400)
      }
    }
    const text = await raw('POST', '/api/products', 'name=x', 'text/plain')
    expect(text.status).toBeGreaterThanOrEqual(400)
    expect(text.status).toBeLessThan(500)
    expect(await snapshot()).toEqual(before)
  })

  it(`documents nested deeper than ${MAX_DOCUMENT_DEPTH} levels → 400 on every write path`, async () => {
    const deep = nest(MAX_DOCUMENT_DEPTH + 1)
    const huge = nest(2000)
    const before = await snapshot()
    const writes: Array<[string, string, unknown]> = [
      ['POST', '/api/data/deep', deep],
      ['PUT', '/api/data/deep/d1', deep],
      ['POST', '/api/data/deep/d2', huge],
      ['POST', '/api/products', { name: 'x', spec: deep }],
      ['PATCH', '/api/products/alpha', { spec: deep }],
      ['PATCH', '/api/settings/title', { value: huge }],
      ['POST', '/api/logs/client', { level: 'ERROR', log: 'x', ctx: deep }],
      ['POST', '/api/logs/client', [{ level: 'ERROR', log: 'x', ctx: huge }]],
      ['POST', '/api/batch', { mutations: [{ method: 'POST', path: '/api/data/deep', body: huge }] }],
    ]
    for (const [method, path, body] of writes) {
      const res = await raw(method, path, JSON.stringify(body))
      expect(res.status, `${method} ${path}`).toBe(400)
      expect(res.body.message, `${method} ${path}`).toMatch(
        /^Request body is nested too deeply: at most \d+ levels/,
      )
    }
    expect(await server.services.store.list('logs/client', { limit: 1 })).toMatchObject({ total: 0 })
    expect(await snapshot()).toEqual(before)

    // A batch refuses its too-deep entry alone; the others commit.
    const batch = await server.api('/api/batch', {
      json: {
        mutations: [
          { method: 'POST', path: '/api/data/deep/b1', body: deep },
          { method: 'POST', path: '/api/data/deep/b2', body: nest(MAX_DOCUMENT_DEPTH) },
        ],
      },
      token: server.admin,
    })
    expect(batch.status, batch.text).toBe(200)
    expect(batch.text).toContain(SERVER_TEXT.bodyTooDeep(MAX_DOCUMENT_DEPTH))
    expect(await server.services.store.get('data/deep', 'b1')).toBeNull()
    // A document at the limit is stored, and its collection still lists and filters.
    const atLimit = await server.api('/api/data/deep/ok', {
      json: nest(MAX_DOCUMENT_DEPTH),
      token: server.admin,
    })
    expect(atLimit.status, atLimit.text).toBe(201)
    const list = await server.api(
      `/api/data/deep?filter=${encodeURIComponent('{"a.a.a":{"$exists":true}}')}`,
      {
        token: server.admin,
      },
    )
    expect(list.status, list.text).toBe(200)
    expect((list.body as Array<{ _id: string }>).map((d) => d._id).sort()).toEqual(['b2', 'ok'])
  })

  it('prototype pollution is refused and pollutes nothing', async () => {
    const before = await snapshot()
    for (const body of [
      '{"_id":"p1","__proto__":{"polluted":true}}',
      '{"constructor":{"prototype":{"polluted":true}}}',
    ]) {
      const res = await raw('PATCH', '/api/products/alpha', body)
      expect(res.status).toBe(400)
      const created = await raw('POST', '/api/products', body)
      expect(created.status).toBe(400)
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(await snapshot()).toEqual(before)
  })

  it('bad headers → 400', async () => {
    const before = await snapshot()
    for (const headers of <Array<Record<string, string>>>[
      { 'if-match': 'abc' },
      { 'if-match': '-1' },
      { 'idempotency-key': 'k'.repeat(201) },
    ]) {
      const res = await server.api('/api/products/alpha', {
        method: 'PATCH',
        json: { name: 'x' },
        token: server.admin,
        headers,
      })
      expect(res.status, JSON.stringify(headers)).toBe(400)
    }
    expect(await snapshot()).toEqual(before)
  })
})
