/**
 * A pull that cannot reach the server (fetch fails: status 0) is tried again by itself. With a live
 * stream its reconnect pulls again; an engine without one (live: false, as the service worker's drain
 * opens it) had nothing left to do so: the mirror stayed behind and the status 'offline' until someone
 * kicked the engine, although the server answered again seconds later.
 */
import 'fake-indexeddb/auto'
import { expect, test } from 'vitest'
import { listVisible } from '../../src/db/mirror'
import { WS_RECONNECT_MS } from '../../src/shared/constants'
import { suiteServer } from '../helpers/suite-server'
import { harness, until } from './harness'

const server = suiteServer()

test('a pull that fails with status 0 schedules a retry, which catches up once the server answers', async () => {
  const token = await server.userWith('unreached', ['products:r'])
  await server.api('/api/products', { token: server.admin, json: { _id: 'while-away', n: 1 } })
  const h = harness(server, 'unreached', token)
  h.net.offline = true
  const engine = await h.open({ live: false })
  await until(() => engine.status().network === 'offline', 'the first pull to fail')
  await until(() => h.clock.waits().length > 0, 'a retry to be scheduled')

  h.net.offline = false
  h.clock.advance(Math.max(...h.clock.waits()))
  await until(
    async () => (await listVisible(engine.db, 'products')).some((d) => d._id === 'while-away'),
    'the retry to pull what the server holds',
  )
  await until(() => engine.status().network === 'online', "the status to say 'online'")
  expect(h.net.requests.filter((r) => r.url.includes('/api/sync')).length).toBeGreaterThan(0)
  await engine.close()
})

test('a pull that reaches the server again brings the stream back at once, not after the reconnect delay', async () => {
  const token = await server.userWith('back-live', ['products:r'])
  const h = harness(server, 'back-live', token)
  h.net.offline = true
  const engine = await h.open({ live: true })
  // Both wait: the pull's retry (about a second) and the stream's reconnect (WS_RECONNECT_MS and more).
  await until(() => h.clock.waits().length >= 2, 'the pull retry and the stream reconnect to be scheduled')
  const [retry = 0, reconnect = 0] = h.clock.waits()
  expect(reconnect).toBeGreaterThanOrEqual(WS_RECONNECT_MS)

  h.net.offline = false
  h.clock.advance(retry)
  await until(() => h.net.sockets.length === 1, 'the stream to reconnect right after the pull')
  await until(() => engine.status().network === 'online', "the status to say 'online'")
  // Live again without the clock reaching the reconnect delay: a change arrives through the stream.
  await server.api('/api/products', { token: server.admin, json: { _id: 'after-return', n: 2 } })
  await until(
    async () => (await listVisible(engine.db, 'products')).some((d) => d._id === 'after-return'),
    'the change made after the return to arrive live',
  )
  await engine.close()
})
