/**
 * Scenario 4 of the sync issue in real Chromium against the real server: a field changed offline and
 * the same field changed on the server meanwhile. On reconnect the write is refused (409), the Sync
 * panel's inbox shows it, the conflict view shows base / mine / theirs, and "Keep mine" re-sends mine
 * on the server's new revision. Ends converged.
 */
import { expect, openLoggedIn, test } from './fixtures'
import {
  engineReady,
  expectConverged,
  freshCollection,
  localState,
  mutate,
  SyncPanel,
} from './pages/sync-panel'

test('a conflicting offline edit is shown with both values and "Keep mine" wins on the server', async ({
  page,
  context,
  server,
}) => {
  const { collection } = freshCollection('conflict')
  const token = await server.login()
  const created = await server.api(`/api/${collection}`, {
    token,
    json: { _id: 'pen', name: 'Pen', price: 1 },
  })
  expect(created.status).toBe(201)
  await openLoggedIn(page, server, token, '/')
  await engineReady(page)
  await expect.poll(async () => (await localState(page, collection)).docs.map((d) => d._id)).toContain('pen')

  const sync = new SyncPanel(page)
  await context.setOffline(true)
  await expect(sync.indicator).toHaveAttribute('data-state', 'offline')
  expect((await mutate(page, 'patch', collection, 'pen', { price: 2 })).ok).toBe(true)
  await expect(sync.pendingCount).toHaveText('1')
  const theirs = await server.api(`/api/${collection}/pen`, { method: 'PATCH', token, json: { price: 3 } })
  expect(theirs.status).toBe(200)

  await context.setOffline(false)
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

test('"Merge" sends the per-field choice', async ({ page, context, server }) => {
  const { collection } = freshCollection('merge')
  const token = await server.login()
  await server.api(`/api/${collection}`, { token, json: { _id: 'cup', name: 'Cup', price: 5, stock: 1 } })
  await openLoggedIn(page, server, token, '/')
  await engineReady(page)
  await expect.poll(async () => (await localState(page, collection)).docs.map((d) => d._id)).toContain('cup')

  await context.setOffline(true)
  expect((await mutate(page, 'patch', collection, 'cup', { name: 'Mug', price: 6 })).ok).toBe(true)
  await server.api(`/api/${collection}/cup`, { method: 'PATCH', token, json: { price: 7, stock: 9 } })
  await context.setOffline(false)

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
