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

  // Slow the replay down so the leader is surely closed in the middle of it. Requests the closed tab
  // never finished are simply dropped here; the server may or may not have seen them.
  const slow = async (route: Route) => {
    if (route.request().method() !== 'POST') return route.continue()
    await new Promise((r) => setTimeout(r, 300))
    await route.continue().catch(() => undefined)
  }
  await context.route(`**/api/${collection}`, slow)
  await context.setOffline(false)
  const arrived = async () =>
    (await server.api<unknown[]>(`/api/${collection}?limit=1000`, { token })).body.length
  await expect.poll(arrived).toBeGreaterThanOrEqual(2)
  expect(await arrived()).toBeLessThan(16)
  await first.close()

  await expect.poll(() => isLeader(second)).toBe(true)
  await expect.poll(arrived, { timeout: 30_000 }).toBe(16)
  const writes = await writesPerDoc(server, token, collection)
  for (const id of ids) expect(writes[id], id).toBe(1)
  await context.unroute(`**/api/${collection}`, slow)
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
