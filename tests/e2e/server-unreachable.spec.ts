/**
 * Issue 20: the server cut off while the browser still has a network (a REAL cut through the socket
 * proxy; navigator.onLine stays true, which Playwright's setOffline would flip). The toolbar's words
 * and cloud say the same thing, Offline, from one state; and a delete made meanwhile says it is on this
 * device only, in the one wording every screen uses (the spec's "Deleted N item(s)" first), whether it
 * came from a list's bulk delete, a document, or a record screen. Back online, the deletes reach the
 * server and the toolbar says Online again. Storage's delete, which goes through its own files queue,
 * says the same. Saves made meanwhile (a document, a record screen) say "Saved on this device" instead
 * of "was saved successfully", a Storage upload says it is kept on this device, and the New user form
 * offers the profile-only create; back online, the saves and the upload reach the server.
 */
import type { Page } from '@playwright/test'
import {
  AUTH_SCREENS_TEXT,
  deleteButtonText,
  deletedToast,
  FEEDBACK_TEXT,
  SCREENS_TEXT,
  STORAGE_BROWSER_TEXT,
  SYNC_UI_TEXT,
  savedToast,
} from '../../src/shared/texts'
import type { E2EServer } from './fixtures'
import { DatabasePage } from './pages/database'
import { deleteRecord } from './pages/discounts'
import { goInPage } from './pages/go-in-page'
import { StoragePage } from './pages/storage'
import { listFolder } from './pages/storage-queue'
import { engineReady, freshCollection, type HandleWindow } from './pages/sync-panel'
import { UsersPage } from './pages/users'
import { expect, openLoggedIn, test } from './proxied'
import type { SocketProxy } from './socket-proxy'

/** A real cut (navigator.onLine stays true), the engine's socket dropped so that it notices at once. */
async function cutServer(page: Page, link: SocketProxy): Promise<void> {
  link.offline = true
  link.killEngineSockets()
  await expect(page.getByTestId('sync-status')).toHaveAttribute('data-state', 'offline')
  expect(await page.evaluate(() => navigator.onLine)).toBe(true)
}

/** A fresh collection holding `docs` and a fresh group, made on the server before the page opens. */
async function seed(server: E2EServer, token: string, prefix: string, docs: Record<string, unknown>[]) {
  const { name, collection } = freshCollection(prefix)
  for (const json of docs) expect((await server.api(`/api/${collection}`, { token, json })).status).toBe(201)
  const group = `g-${prefix}-${Date.now().toString(36)}`
  expect(
    (await server.api('/api/groups', { token, json: { _id: group, name: group, permissions: [] } })).status,
  ).toBe(201)
  return { name, collection, group }
}

test('server out of reach: a second tab, which does not lead, says Offline too and its deletes say "on this device"', async ({
  page,
  context,
  server,
  link,
  through,
}) => {
  const token = await server.login()
  const { name } = await seed(server, token, 'follower', [
    { _id: 'x', n: 'x' },
    { _id: 'y', n: 'y' },
  ])
  await openLoggedIn(page, through, token, `/data/${name}`)
  await engineReady(page)
  const second = await context.newPage()
  await second.goto(`${through.ui}/data/${name}`)
  await engineReady(second)
  const status = (p: Page) => p.evaluate(() => (window as unknown as HandleWindow).__momentum?.status())
  expect((await status(second))?.leader).toBe(false)
  const db = new DatabasePage(second)
  await expect(db.row('x')).toBeVisible()
  await expect(second.getByTestId('connection')).toHaveAttribute('data-state', 'online')

  await cutServer(page, link)
  await expect.poll(async () => (await status(second))?.network).toBe('offline')
  await expect(second.getByTestId('connection')).toHaveAttribute('data-state', 'offline')
  await second.getByRole('checkbox', { name: 'Select x', exact: true }).click()
  await second.keyboard.press('Delete')
  await db.confirm(deleteButtonText(1))
  await expect(db.toasts.filter({ hasText: SCREENS_TEXT.deletedOffline(1) })).toBeVisible()
  await expect(db.toasts.getByText(deletedToast(1), { exact: true })).toHaveCount(0)
  await expect(second.getByTestId('connection')).toHaveAttribute('data-state', 'offline')
})

test('server out of reach: toolbar says Offline in words and icon, deletes say "on this device"', async ({
  page,
  server,
  link,
  through,
}) => {
  const token = await server.login()
  const ids = ['a', 'b', 'c', 'keep']
  const { name, collection, group } = await seed(
    server,
    token,
    'cut',
    ids.map((id) => ({ _id: id, n: id })),
  )

  await openLoggedIn(page, through, token, `/data/${name}`)
  await engineReady(page)
  const db = new DatabasePage(page)
  const words = page.getByTestId('connection')
  const cloud = page.getByTestId('sync-status')
  await expect(db.row('c')).toBeVisible()
  await expect(words).toHaveAttribute('data-state', 'online')

  await cutServer(page, link)
  // One state for both: not "Reconnecting" beside a crossed-out cloud.
  await expect(words).toHaveAttribute('data-state', 'offline')
  await expect(words).toHaveText(FEEDBACK_TEXT.offline)
  await expect(cloud).toHaveAttribute('aria-label', new RegExp(`^${SYNC_UI_TEXT.offline}\\b`))
  expect(await page.evaluate(() => navigator.onLine)).toBe(true)

  // A list's bulk delete (src/app/components/bulk-delete.tsx).
  for (const id of ['a', 'b']) await page.getByRole('checkbox', { name: `Select ${id}`, exact: true }).click()
  await page.keyboard.press('Delete')
  await db.confirm(deleteButtonText(2))
  await expect(db.toasts.filter({ hasText: SCREENS_TEXT.deletedOffline(2) })).toBeVisible()
  await expect(db.toasts.getByText(deletedToast(2), { exact: true })).toHaveCount(0)
  await expect(db.row('a')).toHaveCount(0)
  await db.closeToasts()

  // A document's own Delete (DocumentScreen).
  await db.row('c').getByRole('link', { name: 'c', exact: true }).click()
  await expect(db.heading).toHaveText('c')
  await page.getByRole('button', { name: 'Delete' }).click()
  await db.confirm(deleteButtonText(1))
  await expect(db.heading).toHaveText(name)
  await expect(db.toasts.filter({ hasText: SCREENS_TEXT.deletedOffline(1) })).toBeVisible()
  await expect(db.toasts.getByText(deletedToast(1), { exact: true })).toHaveCount(0)
  await db.closeToasts()

  // A record screen's Delete (RecordScreen, here a group), reached in the page like a link click.
  await goInPage(page, `/groups/${group}`)
  await expect(db.heading).toHaveText(group)
  await deleteRecord(page)
  await expect(db.toasts.filter({ hasText: SCREENS_TEXT.deletedOffline(1) })).toBeVisible()
  await expect(db.toasts.getByText(deletedToast(1), { exact: true })).toHaveCount(0)

  // Nothing reached the server while cut off.
  for (const id of ['a', 'b', 'c'])
    expect((await server.api(`/api/${collection}/${id}`, { token })).status).toBe(200)
  expect((await server.api(`/api/groups/${group}`, { token })).status).toBe(200)

  link.offline = false
  const gone = async (path: string) => (await server.api(path, { token })).status
  for (const path of [
    `/api/${collection}/a`,
    `/api/${collection}/b`,
    `/api/${collection}/c`,
    `/api/groups/${group}`,
  ])
    await expect.poll(() => gone(path), { timeout: 45_000 }).toBe(404)
  expect(await gone(`/api/${collection}/keep`)).toBe(200)
  // Back: the words and the cloud agree again (the socket may take its reconnect delay, 15 s + jitter).
  await expect(words).toHaveAttribute('data-state', 'online', { timeout: 30_000 })
  await expect(cloud).not.toHaveAttribute('data-state', /offline|reconnecting/)
})

test('server out of reach: a Storage delete says "on this device" in the same words, once', async ({
  page,
  server,
  link,
  through,
}) => {
  const token = await server.login()
  const folder = `cut-${Date.now().toString(36)}`
  for (const name of [folder, `${folder}-keep`])
    expect((await server.api('/api/storage/', { token, json: { directory: name } })).status).toBe(201)
  await openLoggedIn(page, through, token, '/storage')
  await engineReady(page)
  const storage = new StoragePage(page)
  await expect(storage.row(folder)).toBeVisible()

  await cutServer(page, link)
  await storage.menu(folder, 'Delete')
  await page
    .getByRole('dialog')
    .getByRole('button', { name: deleteButtonText(1), exact: true })
    .click()
  const toasts = page.locator('.mc-toast')
  // One toast, notifyDeleted's: not "Deleted 1 item(s)" plus Storage's own "… will be sent" warning.
  await expect(toasts.filter({ hasText: SCREENS_TEXT.deletedOffline(1) })).toBeVisible()
  await expect(toasts.getByText(deletedToast(1), { exact: true })).toHaveCount(0)
  await expect(toasts.filter({ hasText: /will be sent when you are back online/ })).toHaveCount(0)
  expect((await server.api(`/api/storage/${folder}?meta=true`, { token })).status).toBe(200)
  await storage.dismissToasts()

  // An upload during the cut is kept on this device, and says so (not "Uploading 1 file").
  const file = `${folder}.txt`
  await storage.filesInput.setInputFiles([{ name: file, mimeType: 'text/plain', buffer: Buffer.from('cut') }])
  await expect(toasts.filter({ hasText: STORAGE_BROWSER_TEXT.uploadsQueued(1) })).toBeVisible()
  await expect(toasts.getByText(STORAGE_BROWSER_TEXT.uploading(1), { exact: true })).toHaveCount(0)

  link.offline = false
  await expect
    .poll(async () => (await server.api(`/api/storage/${folder}?meta=true`, { token })).status, {
      timeout: 45_000,
    })
    .toBe(404)
  await expect
    .poll(async () => (await listFolder(server, token)).some((e) => e.name === file), { timeout: 45_000 })
    .toBe(true)
})

test('server out of reach: saves say "Saved on this device", not "was saved successfully", and arrive later', async ({
  page,
  server,
  link,
  through,
}) => {
  const token = await server.login()
  const { name, collection, group } = await seed(server, token, 'cutsave', [{ _id: 'd1', n: 'before' }])

  await openLoggedIn(page, through, token, `/data/${name}/d1`)
  await engineReady(page)
  const db = new DatabasePage(page)
  await expect(db.heading).toHaveText('d1')
  // The document is on this device before the cut: the heading alone shows while it is still being
  // mirrored (then "does not exist on this device"), and a cut at that moment left nothing to edit.
  await expect(page.getByLabel('n', { exact: true })).toHaveValue('before')
  await cutServer(page, link)

  // A document edit (DocumentScreen).
  await page.getByLabel('n', { exact: true }).fill('during the cut')
  await db.saveButton.click()
  await expect(db.toasts.filter({ hasText: SCREENS_TEXT.savedOffline })).toBeVisible()
  await expect(db.toasts.filter({ hasText: savedToast('Document d1') })).toHaveCount(0)
  await db.closeToasts()

  // A record screen's save (a group's description).
  await goInPage(page, `/groups/${group}`)
  await expect(db.heading).toHaveText(group)
  await page.getByLabel('Description', { exact: true }).fill('written during the cut')
  await db.saveButton.click()
  await expect(db.toasts.filter({ hasText: SCREENS_TEXT.savedOffline })).toBeVisible()
  await expect(db.toasts.filter({ hasText: savedToast(`Group ${group}`) })).toHaveCount(0)
  await db.closeToasts()

  // The New user form knows the server is out of reach too: no register call that cannot answer,
  // the profile-only create (a password is never queued) and its note instead.
  await goInPage(page, '/users')
  const users = new UsersPage(page)
  await users.newUser.click()
  const form = page.getByRole('form', { name: 'New user' })
  await expect(form.getByText(AUTH_SCREENS_TEXT.offlineUserCreate)).toBeVisible()
  await expect(form.getByLabel('Password', { exact: true })).toBeDisabled()

  // Nothing reached the server while cut off.
  const docN = async () => ((await server.api(`/api/${collection}/d1`, { token })).body as { n?: string }).n
  const groupDescription = async () =>
    ((await server.api(`/api/groups/${group}`, { token })).body as { description?: string }).description
  expect(await docN()).toBe('before')
  expect(await groupDescription()).toBeUndefined()

  link.offline = false
  await expect.poll(docN, { timeout: 45_000 }).toBe('during the cut')
  await expect.poll(groupDescription, { timeout: 45_000 }).toBe('written during the cut')
})
