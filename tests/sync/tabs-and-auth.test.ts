/**
 * (8) Two engines ("tabs") over one IndexedDB database writing offline, the leader closed mid-replay:
 * the other takes the lock and every write arrives exactly once. (9) A session that expires during
 * replay: nothing is dropped, and replay resumes after a new login of the same user.
 */
import 'fake-indexeddb/auto'
import { expect, test } from 'vitest'
import { tokenSubject } from '../../src/sync/engine'
import { suiteServer } from '../helpers/suite-server'
import { expectConverged, harness, until } from './harness'

const server = suiteServer({}, { login: false })

const revOf = async (id: string, token: string) =>
  ((await server.api(`/api/products/${id}`, { token })).body as { _rev?: number })._rev

test('(8) two tabs write offline; the leader closes mid-replay; everything arrives exactly once', async () => {
  const token = await server.userWith('tabs', ['products:*'])
  const h = harness(server, 'tabs', token)
  const a = await h.open()
  const b = await h.open()
  await until(() => a.status().leader, 'A leads')
  expect(b.status().leader).toBe(false)
  await a.flushed()

  h.net.offline = true
  for (const id of ['a1', 'a2', 'a3']) await a.mutate.create('products', { by: 'A' }, id)
  for (const id of ['b1', 'b2', 'b3']) await b.mutate.create('products', { by: 'B' }, id)
  await b.mutate.patch('products', 'a1', { by: 'B too' }) // a write chained onto another tab's write
  await until(async () => (await a.pending()).length === 7, 'A sees all seven writes')

  // A sends; right after the server has handled the second write, A's tab closes and the answer is lost.
  let writes = 0
  h.net.afterResponse = async (_url, init) => {
    if (init.method !== 'GET' && ++writes === 2) await a.close()
  }
  h.net.dropResponse = (_url, init) => init.method !== 'GET' && writes === 2
  h.net.offline = false
  await a.kick().catch(() => undefined)
  h.net.afterResponse = null
  h.net.dropResponse = null

  await until(() => b.status().leader, 'B takes the lock')
  await until(async () => (await b.pending()).length === 0, 'B drains the outbox')
  expect(await b.conflicts()).toEqual([])
  for (const id of ['a2', 'a3', 'b1', 'b2', 'b3']) expect(await revOf(id, token), id).toBe(1)
  expect(await revOf('a1', token)).toBe(2)
  expect((await server.api('/api/products/a1', { token })).body).toMatchObject({ by: 'B too' })
  await expectConverged(b, server, token, ['products'])
  await b.close()
})

test('(9) a token that expires during replay keeps every write; replay resumes after a new login', async () => {
  const token = await server.userWith('expiry', ['products:*'])
  const h = harness(server, 'expiry', token)
  const engine = await h.open()
  await until(() => engine.status().leader, 'leader')
  await engine.flushed()
  h.net.offline = true
  for (const id of ['x1', 'x2', 'x3']) await engine.mutate.create('products', { n: id }, id)

  // The session ends on the server right after the first write is answered.
  h.net.afterResponse = async (_url, init) => {
    if (init.method === 'POST') {
      h.net.afterResponse = null
      const jti = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).jti as string
      await server.services.tokens.revoke(jti)
    }
  }
  h.net.offline = false
  await engine.kick()
  await engine.flushed()
  expect(engine.status().auth).toBe('expired')
  expect((await engine.pending()).map((e) => e.docId)).toEqual(['x2', 'x3'])
  expect(await engine.conflicts()).toEqual([])

  // Another user's token is refused: it belongs to another database.
  const other = await server.userWith('someone-else', ['products:r'])
  expect(() => engine.setToken(other)).toThrow(/not for expiry/)
  expect(engine.status().auth).toBe('expired')

  const fresh = await server.login('expiry', 'expiry-pw')
  expect(tokenSubject(fresh)).toBe('expiry')
  engine.setToken(fresh)
  await until(async () => (await engine.pending()).length === 0, 'replay after login')
  for (const id of ['x1', 'x2', 'x3']) expect(await revOf(id, fresh)).toBe(1)
  await expectConverged(engine, server, fresh, ['products'])
  await engine.close()
})
