/**
 * Scenario 5 of the sync issue in real Chromium against the real server: a user who may read and
 * create in a collection, but not edit, queues offline an edit (first in the outbox) and then two
 * creates. On reconnect the server refuses the edit (403): it goes to the Sync panel's inbox as
 * refused, and the creates behind it still arrive. "Take theirs" drops the refused edit. Ends converged.
 *
 * Offline is a real cut (proxied.ts): context.setOffline alone leaves the sync worker's requests and
 * socket through, so a write queued "offline" could be sent before the pending count is read.
 */
import { SYNC_UI_TEXT } from '../../src/shared/texts'
import { passwordOf } from './fixtures'
import {
  engineReady,
  expectConverged,
  freshCollection,
  localState,
  mutate,
  SyncPanel,
  writesPerDoc,
} from './pages/sync-panel'
import { expect, openLoggedIn, setNetwork, test } from './proxied'

test('a refused write goes to the inbox and does not hold back the writes after it', async ({
  page,
  context,
  server,
  link,
  through,
}) => {
  const { collection } = freshCollection('rejected')
  const user = `clerk-${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`
  await server.createUser(user, [`${collection}:cr`])
  const admin = await server.login()
  await server.api(`/api/${collection}`, { token: admin, json: { _id: 'price-list', price: 5 } })
  const token = await server.login(user, passwordOf(user))
  await openLoggedIn(page, through, token, '/')
  await engineReady(page)
  await expect
    .poll(async () => (await localState(page, collection)).docs.map((d) => d._id))
    .toContain('price-list')

  const sync = new SyncPanel(page)
  await setNetwork(context, link, 'offline')
  await expect(sync.indicator).toHaveAttribute('data-state', 'offline')
  expect((await mutate(page, 'patch', collection, 'price-list', { price: 1 })).ok).toBe(true)
  expect((await mutate(page, 'create', collection, 'order-1', { qty: 1 })).ok).toBe(true)
  expect((await mutate(page, 'create', collection, 'order-2', { qty: 2 })).ok).toBe(true)
  await expect(sync.pendingCount).toHaveText('3')

  await setNetwork(context, link, 'online')
  await expect(sync.indicator).toHaveAttribute('data-conflicts', '1')
  await expect
    .poll(async () => (await server.api(`/api/${collection}?limit=100`, { token: admin })).body)
    .toHaveLength(3)
  await expect(sync.pendingCount).toBeHidden()
  expect((await server.api(`/api/${collection}/price-list`, { token: admin })).body).toMatchObject({
    price: 5,
    _rev: 1,
  })

  await sync.open()
  const item = sync.inbox.getByRole('listitem')
  await expect(item).toHaveCount(1)
  await expect(item).toContainText(`${collection}/price-list`)
  await expect(item).toContainText(`${SYNC_UI_TEXT.conflictKind.rejected} (403)`)
  await expect(sync.outboxRows).toHaveCount(0)
  await sync.review('price-list')
  await expect(sync.cell('price', 'mine')).toHaveText('1')
  await expect(sync.cell('price', 'theirs')).toHaveText('5')
  await sync.choose('Take theirs')

  await expect(sync.indicator).not.toHaveAttribute('data-conflicts', '1')
  expect(await writesPerDoc(server, admin, collection)).toEqual({
    'price-list': 1,
    'order-1': 1,
    'order-2': 1,
  })
  await expectConverged(page, server, token, collection)
})
