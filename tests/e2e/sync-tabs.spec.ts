/**
 * Scenarios 8 and 12 of the sync issue with two tabs (two pages of one browser context):
 * - both write offline; the leader tab (holder of the Web Lock momentum-sync) is closed while it
 *   replays; the other tab takes the lock over and everything reaches the server exactly once;
 * - a write made on the server shows up in a tab that did not make it, without a reload.
 * Both end converged.
 */
import type { Page, Route } from '@playwright/test'
import { expect, openLoggedIn, test } from './fixtures'
import {
  engineReady,
  expectConverged,
  freshCollection,
  type HandleWindow,
  localState,
  mutate,
  writesPerDoc,
} from './pages/sync-panel'

const isLeader = (page: Page) =>
  page.evaluate(() => (window as unknown as HandleWindow).__momentum?.status().leader ?? false)

test('two tabs write offline; the leader closes mid-replay; every write arrives exactly once', async ({
  context,
  server,
}) => {
  const { collection } = freshCollection('tabs')
  const token = await server.login()
  const first = await context.newPage()
  await openLoggedIn(first, server, token, '/')
  await engineReady(first)
  await expect.poll(() => isLeader(first)).toBe(true)
  const second = await context.newPage()
  await second.goto(`${server.ui}/`)
  await engineReady(second)
  expect(await isLeader(second)).toBe(false)

  await context.setOffline(true)
  const ids: string[] = []
  for (let i = 0; i < 8; i++) {
    for (const [tab, page] of [
      ['a', first],
      ['b', second],
    ] as const) {
      const id = `${tab}-${i}`
      ids.push(id)
      expect((await mutate(page, 'create', collection, id, { name: `Item ${id}`, n: i })).ok).toBe(true)
    }
  }
  await expect.poll(async () => (await localState(second, collection)).outbox).toBe(16)

  // Replay sends the outbox as one POST /api/batch (singly against a server without it), so the leader
  // cannot be caught between two requests any more: its first request is held here, in flight, and the
  // leader is closed while it waits. The held request never reaches the server (the closed tab cannot
  // finish it); the next leader must send every write, and each exactly once. (Had it reached the server,
  // the feed would have confirmed the writes to the leader by their Idempotency-Keys before its close.)
  let inFlight = false
  const hold = async (route: Route) => {
    if (route.request().method() !== 'POST') return route.continue().catch(() => undefined)
    if (inFlight) return route.continue().catch(() => undefined)
    inFlight = true
    // Left unanswered: the page closes under it, which aborts it.
  }
  const routes = ['**/api/batch', `**/api/${collection}`]
  for (const url of routes) await context.route(url, hold)
  await context.setOffline(false)
  const arrived = async () =>
    (await server.api<unknown[]>(`/api/${collection}?limit=1000`, { token })).body.length
  await expect.poll(() => inFlight).toBe(true)
  expect(await arrived()).toBe(0)
  expect((await localState(second, collection)).outbox).toBe(16)
  await first.close()

  await expect.poll(() => isLeader(second)).toBe(true)
  await expect.poll(arrived, { timeout: 30_000 }).toBe(16)
  await expect.poll(async () => (await localState(second, collection)).outbox, { timeout: 30_000 }).toBe(0)
  const writes = await writesPerDoc(server, token, collection)
  for (const id of ids) expect(writes[id], id).toBe(1)
  for (const url of routes) await context.unroute(url, hold)
  await expectConverged(second, server, token, collection)
})

test('a write on the server appears in another tab without a reload', async ({ context, server }) => {
  const { name, collection } = freshCollection('live')
  const token = await server.login()
  const first = await context.newPage()
  await openLoggedIn(first, server, token, '/')
  await engineReady(first)
  // The second tab shows the collection in the Database editor (the real screen reading the mirror).
  const second = await context.newPage()
  await second.goto(`${server.ui}/data/${name}`)
  await engineReady(second)
  const table = second.getByLabel(`Documents of ${name}`)
  await expect(table).toBeVisible()
  await expect(table).not.toContainText('live-1')

  const res = await server.api(`/api/${collection}`, { token, json: { _id: 'live-1', name: 'Live Ada' } })
  expect(res.status).toBe(201)
  await expect(table).toContainText('live-1')
  await expect
    .poll(async () => (await localState(first, collection)).docs.map((d) => d._id))
    .toContain('live-1')
  await expectConverged(second, server, token, collection)
})
