/**
 * The guard decides on the path the router matched, not on the request line (issue 10, item 1).
 * Requests are sent over a raw socket so no client normalises them: `#`, `?`, `;`, `%23`, doubled
 * slashes and trailing dots must never get past an `n` grant that covers the resource they reach.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { requiresOneOf } from '../../src/shared/texts'
import { type RawResponse, rawRequest } from '../helpers/raw-request'
import { suiteServer } from '../helpers/suite-server'

/** Sends one request line exactly as written (tests/helpers/raw-request.ts). */
function raw(method: string, target: string, token: string, json?: unknown): Promise<RawResponse> {
  return rawRequest(server.url, method, target, token, json)
}

/** Variants of a path that a router or a client may read as the same resource. */
function variants(path: string): string[] {
  const [head, last] = [path.slice(0, path.lastIndexOf('/')), path.slice(path.lastIndexOf('/') + 1)]
  return [
    `${path}#x`,
    `${path}#`,
    `${path}?x=1`,
    `${path};x`,
    `${path}%23x`,
    `${path}/`,
    `${path}.`,
    `${head}//${last}`,
    `${path.replace('/api/', '/api//')}`,
    `${head}/./${last}`,
  ]
}

const server = suiteServer({}, { login: false })
beforeAll(async () => {
  const { store } = server.services
  await store.write(
    { op: 'put', collection: 'groups', id: 'vipg', body: { name: 'VIP', permissions: [] } },
    { user: null },
  )
})

describe('the permission path is the matched route', () => {
  it('keeps users/admin:n over users:r whatever the request line says', async () => {
    const token = await server.userWith('reader', ['users:r', 'users/admin:n'])
    const plain = await raw('GET', '/api/users/admin', token)
    expect(plain.status).toBe(403)
    for (const target of variants('/api/users/admin')) {
      const res = await raw('GET', target, token)
      expect([400, 403, 404], target).toContain(res.status)
      expect(res.body, target).not.toContain('admin@')
    }
    // Where the router reads the request as /api/users/admin, the answer is the guard's own 403.
    for (const target of ['/api/users/admin#x', '/api/users/admin?x=1', '/api/users/admin/']) {
      const res = await raw('GET', target, token)
      expect(res.status, target).toBe(403)
      expect(JSON.parse(res.body).message, target).toBe(requiresOneOf(['users/admin:r']))
    }
    // The picture route computes its own access: the same block holds there.
    expect((await raw('GET', '/api/users/admin/image#x', token)).status).toBe(403)
  })

  it('refuses a write to a protected group through any spelling of its path', async () => {
    const token = await server.userWith('editor', ['groups:*', 'groups/vipg:n'])
    for (const target of variants('/api/groups/vipg')) {
      const res = await raw('PATCH', target, token, { permissions: ['*:*'] })
      expect([400, 403, 404], target).toContain(res.status)
    }
    expect((await raw('PATCH', '/api/groups/vipg#x', token, { permissions: ['*:*'] })).status).toBe(403)
    const vipg = await server.services.store.get('groups', 'vipg')
    expect(vipg?.permissions).toEqual([])
  })

  it('keeps tokens:n over *:r for the token list and the data routes', async () => {
    const token = await server.userWith('auditor', ['*:r', 'tokens:n', 'data/secret:n'])
    await server.services.store.write(
      { op: 'put', collection: 'data/secret', id: 's1', body: { v: 1 } },
      { user: null },
    )
    for (const target of ['/api/tokens#x', '/api/tokens?x', '/api/tokens;x', '/api/tokens/']) {
      const res = await raw('GET', target, token)
      expect([400, 403, 404], target).toContain(res.status)
      expect(res.status, target).not.toBe(200)
    }
    expect((await raw('GET', '/api/tokens#x', token)).status).toBe(403)
    for (const target of [...variants('/api/data/secret'), ...variants('/api/data/secret/s1')]) {
      const res = await raw('GET', target, token)
      expect([400, 403, 404], target).toContain(res.status)
    }
  })

  it('answers a refused request through the error handler (403 body, not a dropped socket)', async () => {
    const token = await server.userWith('blocked', ['users:r', 'users/admin:n'])
    const res = await raw('GET', '/api/users/admin#frag', token)
    expect(res.status).toBe(403)
    expect(JSON.parse(res.body)).toEqual({ error: 'forbidden', message: requiresOneOf(['users/admin:r']) })
  })
})
