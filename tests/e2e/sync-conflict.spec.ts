/**
 * Scenario 4 of the sync issue in real Chromium against the real server: a field changed offline and
 * the same field changed on the server meanwhile. On reconnect the write is refused (409), the Sync
 * panel's inbox shows it, the conflict view shows base / mine / theirs, and "Keep mine" re-sends mine
 * on the server's new revision. Ends converged.
 *
 * Offline is a real cut (proxied.ts): context.setOffline alone leaves the sync worker's requests and
 * socket through, so the write queued "offline" could reach the server before the server's own change
 * and there would be no conflict. The server-side changes go to `server` directly, past the cut.
 */
import {
  engineReady,
  expectConverged,
  freshCollection,
  localState,
  mutate,
  SyncPanel,
} from './pages/sync-panel'
import { expect, openLoggedIn, setNetwork, test } from './proxied'

test('a conflicting offline edit is shown with both values and "Keep mine" wins on the server', async ({
  page,
  context,
  server,
  link,
  through,
}) => {
  const { collection } = freshCollection('conflict')
  const token = await server.login()
  const created = await server.api(`/api/${collection}`, {
    token,
    json: { _id: 'pen', name: 'Pen', price: 1 },
  })
  expect(created.status).toBe(201)
  await openLoggedIn(page, through, token, '/')
  await engineReady(page)
  // The first mirror is not what this test is about: on a loaded machine it can take a while.
  await expect
    .poll(async () => (await localState(page, collection)).docs.map((d) => d._id), { timeout: 30_000 })
    .toContain('pen')

  const sync = new SyncPanel(page)
  await setNetwork(context, link, 'offline')
  await expect(sync.indicator).toHaveAttribute('data-state', 'offline')
  expect((await mutate(page, 'patch', collection, 'pen', { price: 2 })).ok).toBe(true)
  await expect(sync.pendingCount).toHaveText('1')
  const theirs = await server.api(`/api/${collection}/pen`, { method: 'PATCH', token, json: { price: 3 } })
  expect(theirs.status).toBe(200)

  await setNetwork(context, link, 'online')
  await expect(sync.indicator).toHaveAttribute('data-conflicts', '1')
  await sync.open()
  await sync.review('pen')
  await expect(sync.cell('price', 'base')).toHaveText('1')
  await expect(sync.cell('price', 'mine')).toHaveText('2')
  await expect(sync.cell('price', 'theirs')).toHaveText('3')
  await sync.choose('Keep mine')

  await expect
    .poll(async () => (await server.api<{ price: number }>(`/api/${collection}/pen`, { token })).body.price)
    .toBe(2)
  await expectConverged(page, server, token, collection)
})

test('"Merge" sends the per-field choice', async ({ page, context, server, link, through }) => {
  const { collection } = freshCollection('merge')
  const token = await server.login()
  await server.api(`/api/${collection}`, { token, json: { _id: 'cup', name: 'Cup', price: 5, stock: 1 } })
  await openLoggedIn(page, through, token, '/')
  await engineReady(page)
  await expect.poll(async () => (await localState(page, collection)).docs.map((d) => d._id)).toContain('cup')

  await setNetwork(context, link, 'offline')
  expect((await mutate(page, 'patch', collection, 'cup', { name: 'Mug', price: 6 })).ok).toBe(true)
  await server.api(`/api/${collection}/cup`, { method: 'PATCH', token, json: { price: 7, stock: 9 } })
  await setNetwork(context, link, 'online')

  const sync = new SyncPanel(page)
  await expect(sync.indicator).toHaveAttribute('data-conflicts', '1')
  await sync.open()
  await sync.review('cup')
  // name: only I changed it (preselected mine); stock: only they did (theirs); price: both — pick theirs.
  await sync.cell('price', 'theirs').getByRole('radio').check()
  await sync.choose('Merge')

  await expect
    .poll(async () => (await server.api<Record<string, unknown>>(`/api/${collection}/cup`, { token })).body)
    .toMatchObject({ name: 'Mug', price: 7, stock: 9 })
  await expectConverged(page, server, token, collection)
})

test('an open conflict is marked "Conflict" with a way to it; the view lists only what differs (375 px)', async ({
  page,
  context,
  server,
  link,
  through,
}) => {
  const { name, collection } = freshCollection('marked')
  const token = await server.login()
  await server.api(`/api/${collection}`, {
    token,
    json: { _id: 'conflicted-lamp', name: 'Lamp', colour: 'red', price: 1, manufacturerReference: 'A-1' },
  })
  await page.setViewportSize({ width: 375, height: 740 })
  await openLoggedIn(page, through, token, `/data/${name}`)
  await engineReady(page)
  const row = page.getByRole('link', { name: 'conflicted-lamp', exact: true })
  await expect(row).toBeVisible()

  await setNetwork(context, link, 'offline')
  expect(
    (await mutate(page, 'patch', collection, 'conflicted-lamp', { price: 2, manufacturerReference: 'B-22' }))
      .ok,
  ).toBe(true)
  await server.api(`/api/${collection}/conflicted-lamp`, { method: 'PATCH', token, json: { price: 3 } })
  await setNetwork(context, link, 'online')
  const sync = new SyncPanel(page)
  await expect(sync.indicator).toHaveAttribute('data-conflicts', '1')

  // The row says Conflict (not "Not synced yet") and its id is not cut to "co…" by the badge.
  const marker = page.getByTestId('conflict-marker')
  await expect(marker).toHaveAccessibleName(/Conflict/)
  await expect(page.getByTestId('pending-marker')).toHaveCount(0)
  expect(await row.evaluate((a) => a.scrollWidth <= a.clientWidth)).toBe(true)
  await marker.click()
  await expect(sync.conflict).toBeVisible()

  // Only the fields that differ, each saying who changed it; red only where both did.
  const rows = sync.conflict.locator('tbody tr')
  await expect(rows).toHaveCount(2)
  await expect(sync.conflict.locator('tr[data-field="name"]')).toHaveCount(0)
  const price = sync.conflict.locator('tr[data-field="price"]')
  const ref = sync.conflict.locator('tr[data-field="manufacturerReference"]')
  await expect(price).toContainText('Both changed it')
  await expect(ref).toContainText('Only you changed it')
  const colour = (row: typeof price) => row.locator('th').evaluate((th) => getComputedStyle(th).color)
  expect(await colour(ref)).not.toBe(await colour(price))
  // The long field name is whole on one line, not broken mid-word.
  const lines = await ref.locator('th').evaluate((th) => {
    const range = document.createRange()
    range.selectNodeContents(th)
    return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size
  })
  expect(lines).toBe(1)
  await page.keyboard.press('Escape')

  // The document page says Conflict too, and leads to the same view.
  await page.goto(`${through.ui}/data/${name}/conflicted-lamp`)
  await engineReady(page)
  await expect(page.getByTestId('conflict-marker')).toHaveText(/Conflict/)
  await page.getByTestId('conflict-marker').click()
  await expect(sync.conflict).toBeVisible()
  await sync.choose('Keep mine')
  await expectConverged(page, server, token, collection)
})
