/**
 * Scenario 13 of the sync issue: a create → update → delete chain made offline ends deleted on the
 * server, with exactly one tombstone in its change log and no copy coming back later (not in the
 * mirror after the replay, not after a reload's fresh pull). Once through the Database screens as a
 * person would (new document, save, edit, save, delete with the confirmation), once as fast as the
 * mutation API allows (three writes fired without waiting). Ends converged.
 */
import { deleteButtonText, SCREENS_TEXT } from '../../src/shared/texts'
import { expect, openLoggedIn, test } from './fixtures'
import { DatabasePage } from './pages/database'
import { serviceWorkerReady } from './pages/service-worker'
import {
  engineReady,
  expectConverged,
  freshCollection,
  type HandleWindow,
  localState,
  SyncPanel,
} from './pages/sync-panel'
import { changeLog } from './sync-helpers'

test('create → update → delete offline ends deleted on the server with one tombstone', async ({
  page,
  context,
  server,
}) => {
  const { name, collection } = freshCollection('chain')
  const token = await server.login()
  // A document that stays, so the collection exists on the server and the screen lists it.
  expect(
    (await server.api(`/api/${collection}`, { token, json: { _id: 'keep', name: 'Keep' } })).status,
  ).toBe(201)
  await openLoggedIn(page, server, token, `/data/${name}`)
  await engineReady(page)
  const db = new DatabasePage(page)
  await expect(db.row('keep')).toBeVisible()
  // Offline, the screens not opened yet (the document editor) come from the service worker's
  // precache: the console must be installed first, as it is for a person who works offline.
  await serviceWorkerReady(page)
  await engineReady(page)
  await expect(db.row('keep')).toBeVisible()

  await context.setOffline(true)
  const sync = new SyncPanel(page)
  await expect(sync.indicator).toHaveAttribute('data-state', 'offline')

  // Through the screens: create, edit, delete.
  await page.getByRole('link', { name: 'New document' }).click()
  await page.getByLabel('Id (optional)').fill('ui-doc')
  await page.getByPlaceholder('New field name').fill('name')
  await page.getByRole('button', { name: 'Add field' }).click()
  await page.getByLabel('name', { exact: true }).fill('First')
  await db.saveButton.click()
  await expect(db.heading).toHaveText('ui-doc')
  await page.getByLabel('name', { exact: true }).fill('Second')
  await db.saveButton.click()
  // Offline, the save is on this device only, and the toast says so (issue 11), not "saved successfully".
  await expect(db.toasts.filter({ hasText: SCREENS_TEXT.savedOffline }).last()).toBeVisible()
  await db.closeToasts()
  await page.getByRole('button', { name: 'Delete' }).click()
  await db.confirm(deleteButtonText(1))
  await expect(db.heading).toHaveText(name)
  await expect(db.row('ui-doc')).toHaveCount(0)
  // The delete too is on this device only, and its toast says so.
  await expect(db.toasts.filter({ hasText: SCREENS_TEXT.deletedOffline(1) }).last()).toBeVisible()

  // As fast as it gets: three writes fired together, in order.
  const fast = await page.evaluate(async (c) => {
    const m = (window as unknown as HandleWindow).__momentum!.mutate
    const writes = [
      m.create(c, { name: 'Fast' }, 'fast-doc'),
      m.patch(c, 'fast-doc', { name: 'Faster' }),
      m.delete(c, 'fast-doc'),
    ]
    return (await Promise.allSettled(writes)).map((r) => r.status)
  }, collection)
  expect(fast).toEqual(['fulfilled', 'fulfilled', 'fulfilled'])
  expect((await localState(page, collection)).docs.map((d) => d._id)).toEqual(['keep'])
  await expect(sync.pendingCount).toHaveText('6')

  await context.setOffline(false)
  await expect(sync.pendingCount).toBeHidden({ timeout: 20_000 })

  const log = (await changeLog(server, token)).changes.filter((c) => c.collection === collection)
  for (const id of ['ui-doc', 'fast-doc']) {
    expect((await server.api(`/api/${collection}/${id}`, { token })).status, id).toBe(404)
    const ops = log.filter((c) => c.id === id).map((c) => c.op)
    expect(
      ops.filter((op) => op === 'delete'),
      `${id}: one tombstone`,
    ).toHaveLength(1)
    expect(ops.at(-1), `${id}: the last word is the delete`).toBe('delete')
  }
  await expectConverged(page, server, token, collection)

  // A reload pulls again from the stored cursor and shows the table: nothing comes back.
  await page.reload()
  await engineReady(page)
  await expect(db.row('keep')).toBeVisible()
  await expect(db.row('ui-doc')).toHaveCount(0)
  await expect(db.row('fast-doc')).toHaveCount(0)
  await expectConverged(page, server, token, collection)
})
