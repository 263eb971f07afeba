/**
 * (7) The websocket streaming pull with duplicated, reordered and lost frames: a duplicate is ignored,
 * a page that skips ahead (reordered or after a lost one) is a gap that an HTTP pull fills, and the
 * stream resumes from the stored cursor after a reconnect. Frames come from the real server; the test
 * only decides which the engine receives.
 */
import 'fake-indexeddb/auto'
import { expect, test } from 'vitest'
import { WS_RECONNECT_MS } from '../../src/shared/constants'
import type { SocketMessage } from '../../src/shared/sync-protocol'
import { readCursor } from '../../src/sync/local'
import { suiteServer } from '../helpers/suite-server'
import { expectConverged, harness, until } from './harness'

const server = suiteServer()

test('(7) duplicated, reordered and gapped websocket pages converge without double-applying', async () => {
  const token = await server.userWith('streamer', ['products:r'])
  const h = harness(server, 'streamer', token)
  const pages: string[] = []
  let mode: 'pass' | 'dup' | 'hold' | 'drop' = 'pass'
  let held: string | null = null
  h.net.frames = (frame, deliver) => {
    const msg = JSON.parse(frame) as SocketMessage
    if (msg.event !== 'changes') return deliver(frame)
    pages.push(frame)
    if (mode === 'dup') {
      deliver(frame)
      deliver(frame)
    } else if (mode === 'hold') {
      held = frame
      mode = 'pass'
    } else if (mode === 'drop') mode = 'pass'
    else deliver(frame)
  }
  const engine = await h.open({ live: true })
  const has = async (id: string) => (await engine.db.docs.get(['products', id])) !== undefined
  const syncPulls = () => h.net.requests.filter((r) => r.url.includes('/api/sync')).length
  await until(() => pages.length >= 1, 'the catch-up page')
  const create = (id: string) =>
    server.api('/api/products', { token: server.admin, json: { _id: id, name: id } })

  mode = 'dup'
  const pullsBefore = syncPulls()
  await create('w1')
  await until(() => has('w1'), 'w1 over the stream')
  expect(syncPulls()).toBe(pullsBefore)

  // Reordered: w2's page is held back and delivered after w3's.
  mode = 'hold'
  await create('w2')
  await until(() => held !== null, 'w2 page held')
  mode = 'pass'
  await create('w3')
  await until(async () => (await has('w2')) && (await has('w3')), 'w2 and w3 after the gap pull')
  expect(syncPulls()).toBe(pullsBefore + 1)
  const cursor = (await readCursor(engine.db)).cursor
  h.net.frames = null
  // The late page is now behind the cursor: ignored, the cursor does not move back.
  const late = held as unknown as string
  ;(h.net.sockets.at(-1)!.onmessage as (ev: { data: unknown }) => void)({ data: late })
  await new Promise((r) => setTimeout(r, 50))
  expect((await readCursor(engine.db)).cursor).toBe(cursor)

  // Lost: w4's page never arrives; w5's page reveals the gap.
  h.net.frames = (frame, deliver) => {
    if ((JSON.parse(frame) as SocketMessage).event === 'changes' && mode === 'drop') {
      mode = 'pass'
      return
    }
    deliver(frame)
  }
  mode = 'drop'
  await create('w4')
  await until(() => mode === 'pass', 'w4 page dropped')
  expect(await has('w4')).toBe(false)
  await create('w5')
  await until(async () => (await has('w4')) && (await has('w5')), 'w4 and w5 after the gap pull')
  expect(syncPulls()).toBe(pullsBefore + 2)

  // A reconnect resumes from the stored cursor: a change made while disconnected arrives.
  h.net.sockets.at(-1)!.close()
  await create('w6')
  await until(async () => {
    h.clock.advance(30_000) // past WS_RECONNECT_MS plus jitter, once the close has been seen
    return has('w6')
  }, 'w6 after reconnect')
  expect(h.net.sockets.length).toBe(2)
  await expectConverged(engine, server, token, ['products'])
  await engine.close()
})

test('a closed stream never reconnects before WS_RECONNECT_MS (SPEC §9), even with the lowest jitter', async () => {
  const token = await server.userWith('redialer', ['products:r'])
  const h = harness(server, 'redialer', token)
  h.clock.random = () => 0 // the draw that once gave 0.75 × 15 s
  const engine = await h.open({ live: true })
  await until(() => engine.status().network === 'online' && h.net.sockets.length === 1, 'first socket')
  h.net.sockets[0]!.close()
  await until(() => engine.status().network === 'offline', 'close seen')
  h.clock.advance(WS_RECONNECT_MS - 1)
  await new Promise((r) => setTimeout(r, 50))
  expect(h.net.sockets.length).toBe(1)
  h.clock.advance(1)
  await until(() => h.net.sockets.length === 2, 'reconnect at WS_RECONNECT_MS')
  await engine.close()
})

test('a page of a socket that dropped while the page waited is ignored: the status stays offline', async () => {
  const token = await server.userWith('dropper', ['products:r'])
  const h = harness(server, 'dropper', token)
  let pages = 0
  h.net.frames = (frame, deliver) => {
    if ((JSON.parse(frame) as SocketMessage).event === 'changes') pages++
    deliver(frame)
  }
  const engine = await h.open({ live: true })
  const has = async (id: string) => (await engine.db.docs.get(['products', id])) !== undefined
  await until(() => pages === 1, "the stream's catch-up page")
  await new Promise((r) => setTimeout(r, 50))

  // Keep the engine busy with an HTTP pull whose answer is held back, so the next page waits its turn.
  let release!: () => void
  const gate = new Promise<void>((r) => {
    release = r
  })
  let holding = true
  h.net.afterResponse = async (url) => {
    if (holding && url.includes('/api/sync')) await gate
  }
  let dropping = true
  h.net.dropResponse = (url) => dropping && url.includes('/api/sync')
  const busy = engine.pull()
  await until(() => h.net.requests.some((r) => r.url.includes('/api/sync?')), 'the held pull')
  await server.api('/api/products', { token: server.admin, json: { _id: 'midpage', name: 'Mid page' } })
  await until(() => pages === 2, 'the page delivered while the socket is current')

  // The socket drops while its page waits behind the pull.
  h.net.sockets[0]!.close()
  await until(() => engine.status().network === 'offline', 'close seen')
  const seen: string[] = []
  const off = engine.subscribe((s) => seen.push(s.network))
  holding = false
  release()
  expect(await busy).toBe('offline')
  dropping = false
  await new Promise((r) => setTimeout(r, 200))
  expect(seen.filter((n) => n !== 'offline')).toEqual([])
  expect(engine.status().network).toBe('offline')
  off()

  // The reconnect's `sync` from the stored cursor brings the change that page carried.
  h.clock.advance(30_000)
  await until(async () => (await has('midpage')) && engine.status().network === 'online', 'after reconnect')
  await expectConverged(engine, server, token, ['products'])
  await engine.close()
})
