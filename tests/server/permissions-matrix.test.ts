/**
 * The permission matrix of the collection modules against the real server: every route (list, get,
 * create, patch, delete) of every module × anonymous, a user with no groups, a read-only group (`*:r`)
 * and a full group (`*:*`). Refused requests must answer the spec's 'Requires one of: …' and write
 * nothing. Then the narrowing case: `users:r` with `users/secret:n` hides one user everywhere.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import type { Doc } from '../../src/server/store/types'
import { MODULES, type ModuleName, PUBLIC_SETTING_IDS } from '../../src/shared/constants'
import { PAYMENT_TEXT, requiresOneOf, SERVER_TEXT, VALIDATION } from '../../src/shared/texts'
import { suiteServer } from '../helpers/suite-server'

const tokens: Record<string, string | undefined> = {}

const server = suiteServer({}, { login: false })
beforeAll(async () => {
  tokens.anonymous = undefined
  tokens.noGroups = await server.userWith('no-groups', null)
  tokens.readOnly = await server.userWith('read-only', ['*:r'])
  tokens.full = await server.userWith('full', ['*:*'])
  const writes = MODULES.map((module) => ({
    op: 'create' as const,
    collection: module,
    id: `m-${module}`,
    body: module === 'groups' ? { permissions: [] } : { name: 'fixture', ...VALID[module] },
  }))
  await server.services.store.writeMany(writes, { user: null })
})

/** Fields a module's validation requires (actions, issue 15), so a permitted write succeeds. */
const VALID: Partial<Record<ModuleName, Record<string, unknown>>> = {
  actions: { name: 'fixture', trigger: { type: 'GET' }, code: '' },
  schemas: { schema: { type: 'object' } }, // issue 17: a JSON Schema, the id a collection path
  forms: { title: 'Fixture', target: 'data/fixture', fill: 'link', fields: [] },
}

type Route = 'list' | 'get' | 'create' | 'patch' | 'delete'
const ROUTES: Route[] = ['list', 'get', 'create', 'patch', 'delete']

function request(module: ModuleName, route: Route, token: string | undefined) {
  const one = `/api/${module}/m-${module}`
  switch (route) {
    case 'list':
      return server.api(`/api/${module}`, { token })
    case 'get':
      return server.api(one, { token })
    case 'create':
      return server.api(`/api/${module}`, { json: { _id: `new-${module}`, ...VALID[module] }, token })
    case 'patch':
      return server.api(one, { method: 'PATCH', json: { touched: true }, token })
    case 'delete':
      return server.api(one, { method: 'DELETE', token })
  }
}

/** The permission the guard names in its 403 for a route. */
function needed(module: ModuleName, route: Route): string {
  const one = `${module}/m-${module}`
  return {
    list: `${module}:r`,
    get: `${one}:r`,
    create: `${module}:c`,
    patch: `${one}:u`,
    delete: `${one}:d`,
  }[route]
}

/**
 * Every permission the 403 lists: transactions also accept the menu key `payments` (SPEC §6) for
 * reads (`payments:r`) and refunds (`payments/{id}:u`), docs/operating/payments.md.
 */
function neededAll(module: ModuleName, route: Route): string[] {
  if (module !== 'transactions') return [needed(module, route)]
  const one = 'payments/m-transactions'
  const alias = { list: 'payments:r', get: `${one}:r`, delete: `${one}:u` } as Record<
    Route,
    string | undefined
  >
  return [needed(module, route), ...(alias[route] ? [alias[route]] : [])]
}

/** What was written after `seq`, leaving out the security lines each refusal adds to logs/server. */
async function writesSince(seq: number): Promise<string[]> {
  const { changes } = await server.services.store.changes(seq, 1000)
  return changes.filter((c) => c.collection !== 'logs/server').map((c) => `${c.collection}/${c.id}`)
}

describe.each(MODULES)('/api/%s', (module) => {
  it('refuses anonymous callers with 401 and callers without groups with 403', async () => {
    const before = await server.services.store.headSeq()
    for (const route of ROUTES) {
      const anonymous = await request(module, route, tokens.anonymous)
      const noGroups = await request(module, route, tokens.noGroups)
      if (module === 'settings' && route === 'list') {
        // Public settings are readable by anyone; the fixture is private and must not show.
        for (const res of [anonymous, noGroups]) {
          expect(res.status).toBe(200)
          const ids = (res.body as Doc[]).map((d) => d._id)
          expect(ids).not.toContain('m-settings')
          expect(ids.every((id) => (PUBLIC_SETTING_IDS as readonly string[]).includes(id))).toBe(true)
        }
        continue
      }
      expect(anonymous.status, `anonymous ${route}`).toBe(401)
      expect(anonymous.body).toEqual({ error: 'unauthorized', message: SERVER_TEXT.notAuthenticated })
      expect(noGroups.status, `no groups ${route}`).toBe(403)
      expect(noGroups.body).toEqual({ error: 'forbidden', message: requiresOneOf(neededAll(module, route)) })
    }
    expect(await writesSince(before)).toEqual([])
  })

  it('lets a read-only group read and refuses its writes with 403', async () => {
    const before = await server.services.store.headSeq()
    for (const route of ROUTES) {
      const res = await request(module, route, tokens.readOnly)
      if (route === 'list' || route === 'get') {
        expect(res.status, route).toBe(200)
        continue
      }
      expect(res.status, route).toBe(403)
      expect((res.body as { message: string }).message).toBe(requiresOneOf(neededAll(module, route)))
      expect((res.body as { message: string }).message.startsWith('Requires one of: ')).toBe(true)
    }
    expect(await writesSince(before)).toEqual([])
    expect(await server.services.store.get(module, `new-${module}`)).toBeNull()
  })

  it('lets a full group do everything', async () => {
    for (const route of ROUTES) {
      const res = await request(module, route, tokens.full)
      if (module === 'transactions' && route === 'delete') {
        // Nothing was paid: DELETE can only mean deleting the record (SPEC §5).
        expect(res.status).toBe(405)
        expect(res.body).toMatchObject({ message: VALIDATION.transactionDeleteNotSupported })
        continue
      }
      if (module === 'transactions' && (route === 'create' || route === 'patch')) {
        // Only the payment routes write transactions (docs/operating/payments.md).
        expect(res.status, route).toBe(405)
        expect(res.body).toMatchObject({ message: PAYMENT_TEXT.transactionWrite })
        continue
      }
      expect(res.status, route).toBeGreaterThanOrEqual(200)
      expect(res.status, route).toBeLessThan(300)
    }
    const created = await server.services.store.get(module, `new-${module}`)
    if (module === 'transactions') expect(created).toBeNull()
    else expect(created).not.toBeNull()
  })
})

describe('users:r with users/secret:n', () => {
  let limited: string
  let wildcard: string
  beforeAll(async () => {
    await server.userWith('secret', null)
    await server.userWith('visible', null)
    limited = await server.userWith('limited', ['users:r', 'users/secret:n'])
    wildcard = await server.userWith('wild', ['users:r', 'users/*cret:n'])
  })

  it('hides the one user from a direct read, its image and the list, and keeps the others', async () => {
    for (const token of [limited, wildcard]) {
      const direct = await server.api('/api/users/secret', { token })
      expect(direct.status).toBe(403)
      expect(direct.body).toMatchObject({ message: requiresOneOf(['users/secret:r']) })
      expect((await server.api('/api/users/secret/image', { token })).status).toBe(403)
      expect((await server.api('/api/users/visible', { token })).status).toBe(200)

      const list = await server.api('/api/users', { token })
      expect(list.status).toBe(200)
      const ids = (list.body as Doc[]).map((d) => d._id)
      expect(ids).toContain('visible')
      expect(ids).not.toContain('secret')
      expect(list.headers.get('x-total-count')).toBe(String(ids.length))
      const filtered = await server.api(`/api/users?filter=${encodeURIComponent('{"name":"secret"}')}`, {
        token,
      })
      expect(filtered.body).toEqual([])
      expect(filtered.headers.get('x-total-count')).toBe('0')
    }
  })

  it('does not reveal the hidden user through a create conflict', async () => {
    const creator = await server.userWith('creator', ['users:rc', 'users/secret:n'])
    const res = await server.api('/api/users', { json: { _id: 'secret' }, token: creator })
    expect(res.status).toBe(409)
    expect(res.body).not.toHaveProperty('current')
  })
})
