/**
 * The server comes back after a long outage (a crash and a slow restart, the chaos soak's fault):
 * writes made meanwhile backed off, doubling up to BACKOFF_MAX_MS. The browser never went offline, so
 * no `online` event kicks the replay; the first sign is the stream reconnecting. From then on the
 * queued writes go at once instead of waiting out a backoff computed while the server was gone
 * (up to five minutes with the server answering). Each lands exactly once.
 */
import 'fake-indexeddb/auto'
import { expect, test } from 'vitest'
import { WS_RECONNECT_MS } from '../../src/shared/constants'
import { BACKOFF_BASE_MS } from '../../src/sync/replay'
import { suiteServer } from '../helpers/suite-server'
import { expectConverged, harness, until } from './harness'

const server = suiteServer({}, { login: false })

const tick = () => new Promise((r) => setTimeout(r, 50))

test('after a long outage the reconnected stream sends the queued writes at once, each once', async () => {
  const token = await server.userWith('outage', ['data/outage:*'])
  const h = harness(server, 'outage', token)
  const engine = await h.open({ live: true })
  await until(() => engine.status().network === 'online' && h.net.sockets.length === 1, 'first socket')

  // The server goes away: the socket drops, requests fail.
  h.net.offline = true
  h.net.sockets[0]!.close()
  await until(() => engine.status().network === 'offline', 'close seen')
  await engine.mutate.create('data/outage', { n: 1 }, 'w1')
  await engine.mutate.create('data/outage', { n: 2 }, 'w2')
  // The replay fails again and again while the server is down; its wait doubles each time.
  const attempts = async () => (await engine.pending())[0]?.attempts ?? 0
  await until(async () => (await attempts()) >= 1, 'first failed attempt')
  for (let i = 0; i < 200 && (await attempts()) < 8; i++) {
    h.clock.advance(h.clock.waits()[0] ?? BACKOFF_BASE_MS)
    await tick()
  }
  const pending = await engine.pending()
  const waitLeft = pending[0]!.notBefore - h.clock.now()
  // Long enough that the stream's reconnect comes first.
  expect(waitLeft).toBeGreaterThan(2 * WS_RECONNECT_MS)

  // The server is back. Only the stream's reconnect timer is let run, not the replay's backoff.
  h.net.offline = false
  const sockets = h.net.sockets.length
  h.clock.advance(Math.ceil(WS_RECONNECT_MS * 1.2) + 1)
  await until(() => h.net.sockets.length > sockets && engine.status().network !== 'offline', 'reconnected')
  await until(async () => (await engine.pending()).length === 0, 'queued writes sent without waiting', 10_000)

  const log = await server.api(`/api/sync?cursor=0&limit=1000`, { token })
  const changes = (log.body as { changes: Array<{ collection: string; id: string }> }).changes
  expect(changes.filter((c) => c.collection === 'data/outage').map((c) => c.id)).toEqual(['w1', 'w2'])
  await expectConverged(engine, server, token, ['data/outage'])
  await engine.close()
})
