/**
 * The engine's live stream when the server refuses its socket for too many open ones (issue 10 #9):
 * it backs off, doubling per refusal, instead of retrying every WS_RECONNECT_MS, and streams again
 * once a place frees up.
 */
import 'fake-indexeddb/auto'
import { expect, test } from 'vitest'
import { SOCKETS_PER_SESSION_MAX, WS_RECONNECT_MS } from '../../src/shared/constants'
import { refusedDelay } from '../../src/shared/reconnect'
import { suiteServer } from '../helpers/suite-server'
import { openSocket, type TestSocket } from '../server/socket-client'
import { harness, until } from './harness'

const server = suiteServer({}, { login: false })

test('a refused stream backs off, doubling, and connects once a place frees up', async () => {
  const token = await server.userWith('crowded', ['products:r'])
  // Other tabs of the same session hold every place.
  const tabs: TestSocket[] = []
  for (let i = 0; i < SOCKETS_PER_SESSION_MAX; i++) {
    const s = await openSocket(server.url, token)
    await s.next()
    tabs.push(s)
  }
  const h = harness(server, 'crowded', token)
  h.clock.random = () => 0
  const engine = await h.open({ live: true })
  await until(
    () => h.net.sockets.length === 1 && h.clock.waits().includes(refusedDelay(1, 0)),
    'first refusal',
  )
  expect(engine.status().network).not.toBe('online')

  // Not at the ordinary reconnect delay (plus its largest jitter) …
  h.clock.advance(Math.ceil(WS_RECONNECT_MS * 1.2) + 1)
  await new Promise((r) => setTimeout(r, 50))
  expect(h.net.sockets.length).toBe(1)
  // … but after the doubled one, and then twice that.
  h.clock.advance(refusedDelay(1, 0) - Math.ceil(WS_RECONNECT_MS * 1.2) - 1)
  await until(
    () => h.net.sockets.length === 2 && h.clock.waits().includes(refusedDelay(2, 0)),
    'second refusal',
  )
  expect(refusedDelay(2, 0)).toBe(2 * refusedDelay(1, 0))

  // A tab closes: the next attempt is accepted and the stream is live.
  await tabs.pop()!.close()
  h.clock.advance(refusedDelay(2, 0))
  await until(() => h.net.sockets.length === 3 && engine.status().network === 'online', 'accepted')
  await server.api('/api/products', { token: await server.login(), json: { _id: 'p1', name: 'p1' } })
  await until(async () => (await engine.db.docs.get(['products', 'p1'])) !== undefined, 'live change')
  await engine.close()
  for (const s of tabs) await s.close()
})
