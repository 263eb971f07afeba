/**
 * Scenario 6 of the sync issue, both ways, in real Chromium against the real server:
 * - edited offline while the server deleted it: the edit (PATCH, If-Match) meets a missing document,
 *   the Sync panel shows the conflict with the server's side as deleted, and "Keep mine" brings the
 *   document back with my edit;
 * - deleted offline while the server edited it: the delete (If-Match on the old revision) is refused,
 *   the conflict view shows mine as deleted and theirs with the edit, and "Keep mine" deletes it on the
 *   server's new revision.
 * Both end converged.
 *
 * Offline is a real cut (proxied.ts): context.setOffline alone leaves the sync worker's requests and
 * socket through, so the write queued "offline" could reach the server before the server's own change
 * and there would be no conflict. The server-side changes go to `server` directly, past the cut.
 */
import { SYNC_UI_TEXT } from '../../src/shared/texts'
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
import { changeLog } from './sync-helpers'

test('edited offline, deleted on the server: the conflict shows it deleted; "Keep mine" restores my edit', async ({
  page,
  context,
  server,
  link,
  through,
}) => {
  // On reconnect the engine pulls before it replays, so the server's delete is stored while the PATCH
  // is still pending; the patch stays laid over the last server version (ShadowRow.lastLive), so
  // "mine" keeps the untouched field `name` and "Keep mine" re-creates the whole document.
  const { collection } = freshCollection('editdel')
  const token = await server.login()
  await server.api(`/api/${collection}`, { token, json: { _id: 'lamp', name: 'Lamp', price: 10 } })
  await openLoggedIn(page, through, token, '/')
  await engineReady(page)
  await expect.poll(async () => (await localState(page, collection)).docs.map((d) => d._id)).toContain('lamp')

  const sync = new SyncPanel(page)
  await setNetwork(context, link, 'offline')
  await expect(sync.indicator).toHaveAttribute('data-state', 'offline')
  expect((await mutate(page, 'patch', collection, 'lamp', { price: 12 })).ok).toBe(true)
  expect((await server.api(`/api/${collection}/lamp`, { method: 'DELETE', token })).status).toBe(200)

  await setNetwork(context, link, 'online')
  await expect(sync.indicator).toHaveAttribute('data-conflicts', '1')
  await sync.open()
  await expect(sync.inbox.getByRole('listitem')).toContainText(`${collection}/lamp`)
  await sync.review('lamp')
  await expect(sync.cell('price', 'base')).toHaveText('10')
  await expect(sync.cell('price', 'mine')).toHaveText('12')
  await expect(sync.cell('price', 'theirs')).toHaveText(SYNC_UI_TEXT.deleted)
  await expect(sync.cell('name', 'theirs')).toHaveText(SYNC_UI_TEXT.deleted)
  // The edit is not lost while the conflict waits: the row I see is still the lamp with my price.
  expect((await localState(page, collection)).docs).toEqual([
    expect.objectContaining({ _id: 'lamp', name: 'Lamp', price: 12 }),
  ])
  await expect(sync.cell('name', 'mine')).toHaveText('Lamp')
  await sync.choose('Keep mine')

  await expect
    .poll(async () => (await server.api(`/api/${collection}/lamp`, { token })).body)
    .toMatchObject({ _id: 'lamp', name: 'Lamp', price: 12 })
  await expectConverged(page, server, token, collection)
})

test('deleted offline, edited on the server: the conflict shows both; "Keep mine" deletes on the new revision', async ({
  page,
  context,
  server,
  link,
  through,
}) => {
  const { collection } = freshCollection('deledit')
  const token = await server.login()
  await server.api(`/api/${collection}`, { token, json: { _id: 'desk', name: 'Desk', price: 100 } })
  await server.api(`/api/${collection}`, { token, json: { _id: 'chair', name: 'Chair', price: 40 } })
  await openLoggedIn(page, through, token, '/')
  await engineReady(page)
  await expect
    .poll(async () => (await localState(page, collection)).docs.map((d) => d._id).sort())
    .toEqual(['chair', 'desk'])

  const sync = new SyncPanel(page)
  await setNetwork(context, link, 'offline')
  await expect(sync.indicator).toHaveAttribute('data-state', 'offline')
  expect((await mutate(page, 'delete', collection, 'desk')).ok).toBe(true)
  const theirs = await server.api(`/api/${collection}/desk`, { method: 'PATCH', token, json: { price: 90 } })
  expect(theirs.status).toBe(200)

  await setNetwork(context, link, 'online')
  await expect(sync.indicator).toHaveAttribute('data-conflicts', '1')
  // Still deleted here, as I left it, until I decide.
  expect((await localState(page, collection)).docs.map((d) => d._id)).toEqual(['chair'])
  await sync.open()
  await sync.review('desk')
  await expect(sync.cell('price', 'base')).toHaveText('100')
  await expect(sync.cell('price', 'mine')).toHaveText(SYNC_UI_TEXT.deleted)
  await expect(sync.cell('price', 'theirs')).toHaveText('90')
  await sync.choose('Keep mine')

  await expect.poll(async () => (await server.api(`/api/${collection}/desk`, { token })).status).toBe(404)
  const ops = (await changeLog(server, token)).changes
    .filter((c) => c.collection === collection && c.id === 'desk')
    .map((c) => `${c.op}@${c.rev}`)
  // Created, edited by the server, deleted once on top of that edit.
  expect(ops.slice(0, 2)).toEqual(['upsert@1', 'upsert@2'])
  expect(ops.filter((o) => o.startsWith('delete'))).toHaveLength(1)
  expect((await writesPerDoc(server, token, collection)).chair).toBe(1)
  await expectConverged(page, server, token, collection)
})
