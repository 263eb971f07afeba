/**
 * The login session across the tabs of one browser (two pages of one context), with the real server
 * and the real sync engines:
 * - the leader tab's session expires while it holds the Web Lock `momentum-sync`; the user logs in
 *   again in the OTHER tab and writes there; the leader adopts the new login (BroadcastChannel
 *   'momentum-session'), its engine gets the token, and every queued write arrives exactly once;
 * - an explicit logout in one tab logs the other tab of that user out, without an expiry warning.
 */
import type { Page } from '@playwright/test'
import { UI_TEXT } from '../../src/shared/texts'
import { ADMIN_PASSWORD, expect, openLoggedIn, test } from './fixtures'
import { LoginPage } from './pages/login-page'
import { Shell } from './pages/shell'
import {
  engineReady,
  expectConverged,
  freshCollection,
  type HandleWindow,
  localState,
  mutate,
  writesPerDoc,
} from './pages/sync-panel'

const status = (page: Page) =>
  page.evaluate(() => {
    const s = (window as unknown as HandleWindow).__momentum?.status()
    return { leader: s?.leader ?? false, auth: s?.auth ?? null, pending: s?.pending ?? null }
  })

test('a new login in another tab resumes the replay of the expired leader; every write arrives once', async ({
  context,
  server,
}) => {
  const { collection } = freshCollection('relogin')
  const token = await server.login()
  // A second session of the same user watches the server; only the tabs' session is revoked.
  const observer = await server.login()
  const leader = await context.newPage()
  await openLoggedIn(leader, server, token, '/')
  await engineReady(leader)
  await expect.poll(async () => (await status(leader)).leader).toBe(true)
  const other = await context.newPage()
  await other.goto(`${server.ui}/`)
  await engineReady(other)
  expect((await status(other)).leader).toBe(false)

  // The session ends on the server; the leader meets the 401 with its next replay and ends the
  // session, keeping its engine, its queued write and the Web Lock.
  expect((await server.api('/api/auth/logout', { method: 'DELETE', token })).status).toBe(200)
  expect((await mutate(leader, 'create', collection, 'from-leader', { tab: 'leader' })).ok).toBe(true)
  await expect(leader).toHaveURL(/\/ui\/login/)
  await expect.poll(async () => (await status(leader)).auth).toBe('expired')
  expect((await status(leader)).leader).toBe(true)
  expect((await localState(leader, collection)).outbox).toBe(1)

  // The user comes back in the other tab (its stored token is gone: the login page) and writes there.
  await other.reload()
  await expect(other).toHaveURL(/\/ui\/login/)
  await new LoginPage(other).login('admin', ADMIN_PASSWORD)
  await expect(other).not.toHaveURL(/\/login/)
  await engineReady(other)
  expect((await mutate(other, 'create', collection, 'from-other', { tab: 'other' })).ok).toBe(true)
  // The Sync panel's "Retry now" in the leader, as the reviewer did: a kick must now be enough.
  await leader.evaluate(() => window.dispatchEvent(new Event('momentum:sync')))

  const arrived = async () =>
    (await server.api<unknown[]>(`/api/${collection}?limit=1000`, { token: observer })).body.length
  await expect.poll(arrived, { timeout: 30_000 }).toBe(2)
  const writes = await writesPerDoc(server, observer, collection)
  expect(writes).toEqual({ 'from-leader': 1, 'from-other': 1 })
  // The leader adopted the new login: its engine runs on the new token, its page left the login.
  await expect.poll(async () => (await status(leader)).auth).toBe('ok')
  await expect(leader).not.toHaveURL(/\/login/)
  await expect.poll(async () => (await status(leader)).pending).toBe(0)
  await expectConverged(leader, server, observer, collection)
  await expectConverged(other, server, observer, collection)
})

test('logout in one tab logs the other tab out too, without an expiry warning', async ({
  context,
  server,
}) => {
  const token = await server.login()
  const first = await context.newPage()
  await openLoggedIn(first, server, token, '/')
  await engineReady(first)
  const second = await context.newPage()
  await second.goto(`${server.ui}/`)
  await engineReady(second)
  // Record the expiry warning whenever it shows (toasts close after 5 s).
  await second.evaluate((text) => {
    const w = window as unknown as { sawExpiry: boolean }
    w.sawExpiry = false
    new MutationObserver(() => {
      if (document.body.innerText.includes(text)) w.sawExpiry = true
    }).observe(document.body, { subtree: true, childList: true, characterData: true })
  }, UI_TEXT.sessionExpired)

  await new Shell(first).logout()
  await expect(first).toHaveURL(/\/ui\/login/)
  await expect(second).toHaveURL(/\/ui\/login/)
  await expect
    .poll(() => second.evaluate(() => (window as unknown as HandleWindow).__momentum?.database() ?? null))
    .toBeNull()
  // The revoked token really is gone everywhere, and the other tab was not told its session "expired".
  expect((await server.api('/api/auth/session', { token })).status).toBe(401)
  expect(await second.evaluate(() => (window as unknown as { sawExpiry: boolean }).sawExpiry)).toBe(false)
})
