/**
 * A tab that does not lead reports a real network state instead of its initial 'offline': the
 * browser's flag as the floor, and the leader's last state shared over a BroadcastChannel (Node's own
 * BroadcastChannel here, the same API the browser has) through the ports' `browserPeers`.
 */
import 'fake-indexeddb/auto'
import { expect, test } from 'vitest'
import { createSyncEngine } from '../../src/sync/engine'
import { browserPeers } from '../../src/sync/ports'
import { suiteServer } from '../helpers/suite-server'
import { harness, settle, until } from './harness'

const server = suiteServer({}, { login: false })

/** One browser: its online flag and events, shared by the tabs; each tab gets its own channel object. */
function fakeBrowser() {
  const events = new EventTarget()
  const scope = {
    navigator: { onLine: true },
    addEventListener: (type: string, fn: () => void) => events.addEventListener(type, fn),
    removeEventListener: (type: string, fn: () => void) => events.removeEventListener(type, fn),
    BroadcastChannel: globalThis.BroadcastChannel,
  }
  return {
    peers: () => browserPeers(scope),
    set(online: boolean) {
      scope.navigator.onLine = online
      events.dispatchEvent(new Event(online ? 'online' : 'offline'))
    },
  }
}

test("a follower tab shows the leader's network state and the browser's offline flag", async () => {
  const token = await server.userWith('follower', ['products:*'])
  const h = harness(server, 'follower', token)
  const browser = fakeBrowser()
  const open = () =>
    createSyncEngine(
      { ...h.ports, peers: browser.peers() },
      { origin: server.url, user: 'follower', token, live: false },
    )
  const a = await open()
  await until(() => a.status().leader, 'A leads')
  await settle(a)
  expect(a.status().network).toBe('online')

  const b = await open()
  expect(b.status().leader).toBe(false)
  await until(() => b.status().network === 'online', 'B learns the leader is online')

  // The server is unreachable though the browser has a network: only the leader can know; B follows.
  h.net.offline = true
  await a.kick()
  expect(a.status().network).toBe('offline')
  await until(() => b.status().network === 'offline', "B follows the leader's offline")
  h.net.offline = false
  await a.kick()
  await until(() => b.status().network === 'online', 'B follows the leader back online')

  // A tab opened later asks and is answered.
  const c = await open()
  await until(() => c.status().network === 'online', 'C asks and gets the state')

  // The browser loses its network: followers say so at once, whatever the leader said last.
  browser.set(false)
  expect(b.status().network).toBe('offline')
  expect(c.status().network).toBe('offline')
  browser.set(true)
  expect(b.status().network).toBe('online')

  // The leader leaves: B takes over and reports its own state from its own requests.
  await a.close()
  await until(() => b.status().leader || c.status().leader, 'a new leader')
  const leader = b.status().leader ? b : c
  const other = leader === b ? c : b
  h.net.offline = true
  await leader.kick()
  expect(leader.status().network).toBe('offline')
  await until(() => other.status().network === 'offline', 'the other tab follows the new leader')
  h.net.offline = false
  await b.close()
  await c.close()
})
