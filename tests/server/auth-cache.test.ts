/**
 * The guard keeps verified tokens and each user's permissions between requests (issue 20,
 * auth/permission-cache.ts, auth/tokens.ts). These tests hold it to the security properties it must
 * keep: every revocation and every change of a group or a user's groups counts on the very next request,
 * on one instance and across two instances on one PostgreSQL. Each case first warms the cache with
 * requests that succeed, so a stale entry would show.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { SESSIONS } from '../../src/server/auth/tokens'
import type { DocumentStore } from '../../src/server/store/types'
import { describePostgres, serverPairOnPostgres } from '../helpers/postgres-suite'
import type { TestServer } from '../helpers/server'
import { suiteServer } from '../helpers/suite-server'

/** A few requests that succeed, so the token and the permissions are cached. */
async function warm(server: TestServer, path: string, token: string): Promise<void> {
  for (let i = 0; i < 3; i++) expect((await server.api(path, { token })).status).toBe(200)
}

/** Counts the store reads of `collection` made through `store.get` while `run` runs. */
async function readsOf(store: DocumentStore, collection: string, run: () => Promise<void>): Promise<number> {
  const original = store.get
  let n = 0
  store.get = (c, id) => {
    if (c === collection) n++
    return original.call(store, c, id)
  }
  try {
    await run()
  } finally {
    store.get = original
  }
  return n
}

describe('auth cache on one instance', () => {
  const server = suiteServer()
  beforeAll(async () => {
    await server.api('/api/data/notes/n1', { method: 'PUT', json: { text: 'hello' }, token: server.admin })
  })

  it('reads a user’s groups once, not on every request', async () => {
    const token = await server.userWith('cara', ['data/notes:r'])
    await warm(server, '/api/data/notes/n1', token)
    const reads = await readsOf(server.services.store, 'groups', async () => {
      for (let i = 0; i < 5; i++) expect((await server.api('/api/data/notes/n1', { token })).status).toBe(200)
    })
    expect(reads).toBe(0)
  })

  it('reads a session once, not on every request', async () => {
    const token = await server.login()
    await warm(server, '/api/data/notes/n1', token)
    const reads = await readsOf(server.services.store, SESSIONS, async () => {
      for (let i = 0; i < 5; i++) expect((await server.api('/api/data/notes/n1', { token })).status).toBe(200)
    })
    expect(reads).toBe(0)
  })

  it('logout: the very next request with the token is 401', async () => {
    const token = await server.login()
    await warm(server, '/api/data/notes/n1', token)
    expect((await server.api('/api/auth/logout', { method: 'DELETE', token })).status).toBe(200)
    expect((await server.api('/api/data/notes/n1', { token })).status).toBe(401)
  })

  it('a session deleted behind the guard’s back (as another instance would) is 401 at once', async () => {
    const token = await server.login()
    await warm(server, '/api/data/notes/n1', token)
    const sessionId = (await server.services.tokens.verify(token))!.sessionId
    // Straight in the store: no revoke hook runs, as when another instance ends the session.
    await server.services.store.write({ op: 'delete', collection: SESSIONS, id: sessionId }, { user: null })
    expect((await server.api('/api/data/notes/n1', { token })).status).toBe(401)
    expect((await server.api('/api/data/notes/n1', { token: server.admin })).status).toBe(200)
  })

  it('a password change by an admin ends the user’s sessions on the next request', async () => {
    const token = await server.userWith('dora', ['data/notes:r'])
    await warm(server, '/api/data/notes/n1', token)
    const res = await server.api('/api/users/dora', {
      method: 'PATCH',
      json: { password: 'a-new-long-password-9' },
      token: server.admin,
    })
    expect(res.status, res.text).toBe(200)
    expect((await server.api('/api/data/notes/n1', { token })).status).toBe(401)
  })

  it('a group’s permissions changed: taken away and given back on the next request', async () => {
    const token = await server.userWith('emil', ['data/notes:r'])
    await warm(server, '/api/data/notes/n1', token)
    const cut = await server.api('/api/groups/g-emil', {
      method: 'PATCH',
      json: { permissions: [] },
      token: server.admin,
    })
    expect(cut.status, cut.text).toBe(200)
    expect((await server.api('/api/data/notes/n1', { token })).status).toBe(403)
    const back = await server.api('/api/groups/g-emil', {
      method: 'PATCH',
      json: { permissions: ['data/notes:r'] },
      token: server.admin,
    })
    expect(back.status, back.text).toBe(200)
    expect((await server.api('/api/data/notes/n1', { token })).status).toBe(200)
  })

  it('a user moved out of a group loses its rights on the next request', async () => {
    const token = await server.userWith('finn', ['data/notes:r'])
    await warm(server, '/api/data/notes/n1', token)
    const res = await server.api('/api/users/finn', {
      method: 'PATCH',
      json: { groups: [] },
      token: server.admin,
    })
    expect(res.status, res.text).toBe(200)
    expect((await server.api('/api/data/notes/n1', { token })).status).toBe(403)
  })

  it('a deleted API token is 401 on the next request', async () => {
    const created = await server.api('/api/tokens', {
      json: { name: 'script', permissions: ['data/notes:r'] },
      token: server.admin,
    })
    expect(created.status, created.text).toBe(201)
    const { token, _id } = created.body as { token: string; _id: string }
    await warm(server, '/api/data/notes/n1', token)
    expect((await server.api(`/api/tokens/${_id}`, { method: 'DELETE', token: server.admin })).status).toBe(
      200,
    )
    expect((await server.api('/api/data/notes/n1', { token })).status).toBe(401)
  })
})

describePostgres('auth cache across two instances on one PostgreSQL', () => {
  const pair = serverPairOnPostgres()

  it('a group changed on A counts on B’s very next request; a logout on A too', async () => {
    const { a, b } = pair
    const admin = await a.login()
    await a.api('/api/data/notes/n1', { method: 'PUT', json: { text: 'hello' }, token: admin })
    const token = await a.userWith('gina', ['data/notes:r'])
    await warm(b, '/api/data/notes/n1', token)
    // No wait between the change on A and the request on B: B must not answer from what it kept.
    for (const [permissions, status] of [
      [[], 403],
      [['data/notes:r'], 200],
      [[], 403],
    ] as const) {
      const res = await a.api('/api/groups/g-gina', { method: 'PATCH', json: { permissions }, token: admin })
      expect(res.status, res.text).toBe(200)
      expect((await b.api('/api/data/notes/n1', { token })).status).toBe(status)
    }
    const other = await a.login()
    await warm(b, '/api/data/notes/n1', other)
    expect((await a.api('/api/auth/logout', { method: 'DELETE', token: other })).status).toBe(200)
    expect((await b.api('/api/data/notes/n1', { token: other })).status).toBe(401)
  })
})
