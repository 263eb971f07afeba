/**
 * The cut comes while a write's answer is on its way (tests/e2e/logs.spec.ts failed this way 1 run in
 * 10): the socket drops and says 'offline', then the answer, sent before the cut, arrives and says
 * 'online'. The stream then waited out its 15-20 s reconnect delay and the toolbar said "Reconnecting"
 * the whole time, with the server gone. Now an 'online' while the stream is down tries the socket at
 * once: here it cannot be made, so the engine says 'offline' again without any time passing.
 */
import 'fake-indexeddb/auto'
import { expect, test } from 'vitest'
import { suiteServer } from '../helpers/suite-server'
import { harness, until } from './harness'

const server = suiteServer({}, { login: false })

test('an answer that arrives after the socket dropped does not leave the engine online', async () => {
  const token = await server.userWith('late', ['data/late:*'])
  const h = harness(server, 'late', token)
  const engine = await h.open({ live: true })
  await until(() => engine.status().network === 'online' && h.net.sockets.length === 1, 'first socket')

  const seen: string[] = []
  engine.subscribe((s) => seen.push(s.network))
  h.net.afterResponse = async (_url, init) => {
    if (init.method !== 'POST') return
    h.net.afterResponse = null
    // The server has applied the write; now the network goes, before the engine reads the answer.
    h.net.offline = true
    h.net.sockets[0]!.close()
    await until(() => engine.status().network === 'offline', 'the dropped socket seen first')
  }
  await engine.mutate.create('data/late', { n: 1 }, 'w1')
  await until(async () => (await engine.pending()).length === 0, 'the write confirmed by its late answer')
  await until(() => seen.lastIndexOf('online') > seen.indexOf('offline'), 'the late answer said online')
  // The clock never moves: the reconnect delay has not passed, yet the engine knows it is cut off.
  await until(() => engine.status().network === 'offline', 'offline again at once')
  expect(h.clock.waits().length).toBeGreaterThan(0)

  // The server answers again: the stream's own delay brings the socket back.
  h.net.offline = false
  const sockets = h.net.sockets.length
  h.clock.advance(h.clock.waits().reduce((a, b) => Math.max(a, b), 0) + 1)
  await until(() => h.net.sockets.length > sockets && engine.status().network === 'online', 'back online')
  await engine.close()
})
