/**
 * The sync engine and the session in real Chromium:
 * - scenario 9: the session is revoked on the server while the outbox replays; nothing is dropped, the
 *   user is asked to log in again (with a banner saying the changes are kept), and after the new login
 *   the replay resumes and every write arrives exactly once;
 * - explicit logout with unsent changes warns with their number first; confirming deletes the local
 *   database; without unsent changes logout just happens.
 */
import type { Page, Route } from '@playwright/test'
import { SYNC_UI_TEXT } from '../../src/shared/texts'
import { ADMIN_PASSWORD } from './fixtures'
import { LoginPage } from './pages/login-page'
import { Shell } from './pages/shell'
import {
  engineReady,
  expectConverged,
  freshCollection,
  type HandleWindow,
  localState,
  mutate,
  SyncPanel,
  writesPerDoc,
} from './pages/sync-panel'
import { expect, openLoggedIn, setNetwork, test } from './proxied'

const databases = (page: Page) =>
  page.evaluate(async () => (await indexedDB.databases()).map((d) => d.name ?? ''))

test('a session revoked during replay keeps every queued write; after a new login they all arrive once', async ({
  page,
  context,
  server,
  link,
  through,
}) => {
  const { collection } = freshCollection('expiry')
  const token = await server.login()
  // A second session of the same user watches the server; only the page's session gets revoked.
  const observer = await server.login()
  // A real cut (proxied.ts): context.setOffline alone leaves the sync worker's requests and socket
  // through, so the writes queued "offline" could reach the server before the replay is held.
  await openLoggedIn(page, through, token, '/')
  await engineReady(page)

  await setNetwork(context, link, 'offline')
  const ids = Array.from({ length: 10 }, (_, i) => `t-${i}`)
  for (const id of ids) expect((await mutate(page, 'create', collection, id, { name: id })).ok).toBe(true)
  const sync = new SyncPanel(page)
  await expect(sync.pendingCount).toHaveText('10')

  // Replay sends the run of writes in one POST /api/batch (or singly, against a server without it).
  // The first such request is held until the session has been revoked, so the replay is genuinely in
  // flight when the session ends and the server answers it as a revoked session (401).
  let release = () => {}
  const revoked = new Promise<void>((resolve) => {
    release = resolve
  })
  let held = 0
  const hold = async (route: Route) => {
    if (route.request().method() === 'POST') {
      held++
      await revoked
    }
    await route.continue().catch(() => undefined)
  }
  const routes = ['**/api/batch', `**/api/${collection}`]
  for (const url of routes) await context.route(url, hold)
  await setNetwork(context, link, 'online')
  const arrived = async () =>
    (await server.api<unknown[]>(`/api/${collection}?limit=1000`, { token: observer })).body.length
  await expect.poll(() => held).toBeGreaterThan(0)
  // The session ends on the server while the replay is under way.
  expect((await server.api('/api/auth/logout', { method: 'DELETE', token })).status).toBe(200)
  release()

  await expect(page).toHaveURL(/\/ui\/login/)
  const banner = sync.banner('expired')
  await expect(banner).toBeVisible()
  const sent = await arrived()
  expect(sent).toBeLessThan(10)
  const local = await localState(page, collection)
  expect(local.docs.map((d) => d._id).sort()).toEqual([...ids].sort())
  expect(local.outbox).toBe(10 - sent)
  await expect(banner).toHaveText(SYNC_UI_TEXT.sessionExpiredKept(10 - sent))

  const login = new LoginPage(page)
  await login.login('admin', ADMIN_PASSWORD)
  await expect(page).not.toHaveURL(/\/login/)
  await expect(banner).toBeHidden()
  await expect.poll(arrived, { timeout: 30_000 }).toBe(10)
  const writes = await writesPerDoc(server, observer, collection)
  for (const id of ids) expect(writes[id], id).toBe(1)
  for (const url of routes) await context.unroute(url, hold)
  const fresh = await page.evaluate(() => (window as unknown as HandleWindow).__momentum?.status().auth)
  expect(fresh).toBe('ok')
  await expectConverged(page, server, observer, collection)
})

test('logout with unsent changes warns with their number; confirming deletes the local database', async ({
  page,
  context,
  server,
  link,
  through,
}) => {
  const { collection } = freshCollection('logout')
  const token = await server.login()
  // A real cut (proxied.ts): with context.setOffline alone the sync worker could still send the writes,
  // and "nothing of it ever reaches the server" would not be what the logout did.
  await openLoggedIn(page, through, token, '/')
  await engineReady(page)
  const database = await page.evaluate(() => (window as unknown as HandleWindow).__momentum!.database()!)
  await setNetwork(context, link, 'offline')
  for (const id of ['lost-1', 'lost-2'])
    expect((await mutate(page, 'create', collection, id, {})).ok).toBe(true)

  const shell = new Shell(page)
  const dialog = page.getByRole('dialog', { name: SYNC_UI_TEXT.logoutTitle })
  await shell.logout()
  await expect(dialog).toBeVisible()
  await expect(dialog).toContainText(SYNC_UI_TEXT.logoutText(2))
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  await expect(dialog).toBeHidden()
  await expect(shell.avatar).toBeVisible()
  expect((await localState(page, collection)).outbox).toBe(2)

  await shell.logout()
  await dialog.getByRole('button', { name: SYNC_UI_TEXT.logoutConfirm }).click()
  await expect(page).toHaveURL(/\/ui\/login/)
  await expect.poll(() => databases(page)).not.toContain(database)

  // Nothing of it ever reaches the server, also after the next login.
  await setNetwork(context, link, 'online')
  const again = await server.login()
  // The same origin as before (the proxy's), so this is the browser whose local database was deleted.
  await openLoggedIn(page, through, again, '/')
  await engineReady(page)
  await expectConverged(page, server, again, collection)
  expect((await server.api(`/api/${collection}/lost-1`, { token: again })).status).toBe(404)
})

test('logout without unsent changes asks nothing', async ({ page, server }) => {
  const { collection } = freshCollection('clean')
  const token = await server.login()
  await openLoggedIn(page, server, token, '/')
  await engineReady(page)
  await expectConverged(page, server, token, collection)
  const database = await page.evaluate(() => (window as unknown as HandleWindow).__momentum!.database()!)
  await new Shell(page).logout()
  await expect(page).toHaveURL(/\/ui\/login/)
  await expect(page.getByRole('dialog')).toBeHidden()
  await expect.poll(() => databases(page)).not.toContain(database)
})
