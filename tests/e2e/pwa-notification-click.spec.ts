/**
 * A click on a push notification, for real: Chromium shows web notifications through the desktop
 * notification service on its D-Bus session bus, so this spec gives it one (tests/helpers/
 * notification-daemon.ts) and clicks the way a desktop does (ActionInvoked "default"). The service
 * worker's notificationclick then runs with the user's gesture: with a console window open it focuses
 * it and the app navigates to the notification's route in place (no reload, the router and the
 * unsaved-changes guard stay in charge); with none it opens a new window on that route.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { type BrowserContext, type CDPSession, chromium, type Page } from '@playwright/test'
import config, { CHROMIUM } from '../../playwright.config'
import { VIDEO_TEXT } from '../../src/shared/texts'
import {
  hasDbusDaemon,
  type NotificationDaemon,
  startNotificationDaemon,
} from '../helpers/notification-daemon'
import { type E2EServer, expect, openLoggedIn, passwordOf, test } from './fixtures'
import { registrationId, serviceWorkerReady } from './pages/service-worker'
import { Shell } from './pages/shell'

test.skip(
  !hasDbusDaemon(),
  'needs dbus-daemon (Debian package dbus-daemon) for the desktop notification service',
)

let daemon: NotificationDaemon
const profiles: string[] = []
test.beforeAll(async () => {
  daemon = await startNotificationDaemon()
})
test.afterAll(async () => {
  await daemon?.close()
  for (const dir of profiles) fs.rmSync(dir, { recursive: true, force: true })
})

/**
 * A browser on a real (persistent) profile, as users have: Chromium routes a desktop click back to
 * the profile by name, which never finds Playwright's throwaway incognito contexts.
 */
async function launch(): Promise<BrowserContext> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'momentum-click-profile-'))
  profiles.push(dir)
  return chromium.launchPersistentContext(dir, {
    executablePath: CHROMIUM,
    headless: true,
    args: config.use?.launchOptions?.args,
    env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: daemon.address },
  })
}

async function push(cdp: CDPSession, server: E2EServer, payload: Record<string, unknown>): Promise<void> {
  await cdp.send('ServiceWorker.deliverPushMessage', {
    origin: server.url,
    registrationId: await registrationId(cdp, `${server.ui}/`),
    data: JSON.stringify(payload),
  })
}

/** Waits until the desktop shows a notification with this title; returns its id there. */
async function shownOnDesktop(summary: string): Promise<number> {
  await expect.poll(() => daemon.shown.some((n) => n.summary === summary && !n.closed)).toBe(true)
  const n = daemon.shown.find((s) => s.summary === summary && !s.closed)!
  expect(n.actions).toContain('default')
  return n.id
}

async function loggedInConsole(context: BrowserContext, server: E2EServer): Promise<Page> {
  await context.grantPermissions(['notifications'], { origin: server.url })
  const page = context.pages()[0] ?? (await context.newPage())
  await openLoggedIn(page, server, await server.login(), '/')
  await serviceWorkerReady(page)
  await expect(new Shell(page).nav).toBeVisible()
  return page
}

test('a click focuses the open console, which shows the route in place', async ({ server }) => {
  const context = await launch()
  try {
    const page = await loggedInConsole(context, server)
    // Marks this document: a reload or a new window would not carry it.
    await page.evaluate(() => {
      ;(window as unknown as { sameDocument: boolean }).sameDocument = true
    })
    const cdp = await context.newCDPSession(page)
    await push(cdp, server, { title: 'Group changed', body: 'Editors', url: '/ui/groups' })
    const id = await shownOnDesktop('Group changed')

    daemon.click(id)
    await expect(page).toHaveURL(`${server.ui}/groups`)
    await expect(new Shell(page).currentCrumb).toBeVisible()
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(
      true,
    )
    expect(context.pages()).toEqual([page])
    // The worker closed it: the desktop was told, and the browser lists it no more.
    await expect.poll(() => daemon.shown.find((n) => n.id === id)?.closed).toBe(true)
    await expect
      .poll(() =>
        page.evaluate(async () =>
          (await navigator.serviceWorker.ready).getNotifications().then((l) => l.length),
        ),
      )
      .toBe(0)
  } finally {
    await context.close()
  }
})

test('with no console window open, a click opens one on the route', async ({ server }) => {
  const context = await launch()
  try {
    const page = await loggedInConsole(context, server)
    // A page outside the worker's scope keeps DevTools reachable once the console is closed.
    const observer = await context.newPage()
    await observer.goto(`${server.url}/api/auth/session`)
    const cdp = await context.newCDPSession(observer)
    await page.close()

    await push(cdp, server, { title: 'Order shipped', body: 'Order 42', url: '/ui/users' })
    const id = await shownOnDesktop('Order shipped')
    const opened = context.waitForEvent('page')
    daemon.click(id)
    const console = await opened
    await expect(console).toHaveURL(`${server.ui}/users`)
    await expect(new Shell(console).nav).toBeVisible()
  } finally {
    await context.close()
  }
})

test('Decline on a call notification declines the call and opens no window', async ({ server }) => {
  await server.createUser('pushcallee', [])
  const callee = await server.login('pushcallee', passwordOf('pushcallee'))
  const admin = await server.login()
  const call = await server.api<{ batch: string }>('/api/call', {
    method: 'POST',
    json: { to: 'pushcallee', room: 'push-decline' },
    token: admin,
  })
  expect(call.status).toBe(202)
  const ringing = async () =>
    (await server.api<Array<{ _id: string; status: string }>>('/api/video/calls', { token: callee })).body
  await expect.poll(async () => (await ringing()).length).toBe(1)
  const id = (await ringing())[0]!._id

  const context = await launch()
  try {
    await context.grantPermissions(['notifications'], { origin: server.url })
    const page = context.pages()[0] ?? (await context.newPage())
    await openLoggedIn(page, server, callee, '/')
    await serviceWorkerReady(page)
    await expect(new Shell(page).nav).toBeVisible()
    const before = page.url()
    const cdp = await context.newCDPSession(page)
    await push(cdp, server, {
      type: 'notification',
      title: 'admin is calling',
      url: '/ui/video/push-decline',
      call: id,
    })
    const shown = await shownOnDesktop('admin is calling')
    const actions = daemon.shown.find((n) => n.id === shown)!.actions
    // key, label pairs: the Decline button's key is the one before its label.
    const decline = actions[actions.indexOf(VIDEO_TEXT.decline) - 1]
    expect(decline).toBeDefined()

    daemon.click(shown, decline)
    await expect.poll(async () => (await ringing()).find((c) => c._id === id)?.status).toBe('declined')
    expect(context.pages()).toEqual([page])
    expect(page.url()).toBe(before)
  } finally {
    await context.close()
  }
})
