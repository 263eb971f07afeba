/**
 * Scenario 1 of the sync issue: a write made offline survives a reload and a browser restart (a
 * persistent profile in a temp user-data-dir, closed and relaunched, with the network still off: the
 * service worker serves the console, IndexedDB holds the outbox) and reaches the server exactly once
 * when the network returns. Ends converged.
 *
 * The restarted browser is also given a proxy that does not exist: `setOffline` reaches the service
 * worker only once Playwright has attached to it, and a relaunched Chromium starts the worker for the
 * pending Background Sync before that, which would send the write "while offline". A dead proxy is
 * offline from the first packet, for every part of the browser. Before the restart the same holds for
 * the reloaded page's new worker and for Background Sync (fired by the real network state), so the
 * console runs through a proxy (socket-proxy.ts) that cuts the server off for all of them.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { type BrowserContext, chromium, type Page } from '@playwright/test'
import config, { CHROMIUM } from '../../playwright.config'
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
import { expect, openLoggedIn, test } from './proxied'

/** Nothing listens on the discard port: every request through this proxy fails at once. */
const DEAD_PROXY = ['--proxy-server=http://127.0.0.1:9', '--proxy-bypass-list=<-loopback>']

const launch = (dir: string, network: 'online' | 'offline' | 'unplugged' = 'online') =>
  chromium.launchPersistentContext(dir, {
    executablePath: CHROMIUM,
    headless: true,
    args: [...(config.use?.launchOptions?.args ?? []), ...(network === 'unplugged' ? DEAD_PROXY : [])],
    offline: network !== 'online',
  })

async function serviceWorkerReady(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready
  })
  const controlled = () => page.evaluate(() => !!navigator.serviceWorker.controller)
  if (!(await controlled())) await page.reload()
  await expect.poll(controlled).toBe(true)
}

const firstPage = async (context: BrowserContext) => context.pages()[0] ?? (await context.newPage())

test('an offline write survives reload and browser restart, then reaches the server once', async ({
  server,
  link,
  through,
}) => {
  const { collection } = freshCollection('offline')
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'momentum-profile-'))
  const token = await server.login()
  // Every start opens the console through one proxy origin (its IndexedDB and service worker live there).
  let context = await launch(dir)
  try {
    let page = await firstPage(context)
    await openLoggedIn(page, through, token, '/')
    await engineReady(page)
    expect(await page.evaluate(() => (window as unknown as HandleWindow).__momentum?.mode())).toBe('worker')
    await serviceWorkerReady(page)
    await engineReady(page)

    await context.setOffline(true)
    // The emulation reaches a worker started after the reload late, and Chromium fires the service
    // worker's Background Sync by the real network state: the proxy cuts the server off for all of them.
    link.offline = true
    link.killEngineSockets()
    const written = await mutate(page, 'create', collection, 'offline-pen', { name: 'Offline pen', price: 4 })
    expect(written.ok).toBe(true)
    let sync = new SyncPanel(page)
    await expect(sync.pendingCount).toHaveText('1')

    await page.reload()
    await engineReady(page)
    sync = new SyncPanel(page)
    await expect(sync.pendingCount).toHaveText('1')
    await sync.open()
    await expect(sync.outboxRows).toHaveCount(1)
    // The entry names the change and the document, not the REST call (issue 11).
    await expect(sync.outboxRows.first()).toContainText('Create')
    await expect(sync.outboxRows.first()).toContainText(`${collection}/offline-pen`)
    await expect(sync.outboxRows.first()).not.toContainText('POST')

    // Browser restart: the whole profile closes and a new browser opens it, with no network at all.
    await context.close()
    context = await launch(dir, 'unplugged')
    page = await firstPage(context)
    const response = await page.goto(`${through.ui}/`)
    expect(response?.fromServiceWorker()).toBe(true)
    await engineReady(page)
    sync = new SyncPanel(page)
    await expect(sync.pendingCount).toHaveText('1')
    const local = await localState(page, collection)
    expect(local.outbox).toBe(1)
    expect(local.docs.find((d) => d._id === 'offline-pen')).toMatchObject({ name: 'Offline pen', price: 4 })
    expect((await server.api(`/api/${collection}/offline-pen`, { token })).status).toBe(404)

    // Another start, offline, then the network returns: the write is sent once (by the tab, or by
    // the service worker's Background Sync if it gets there first; the Idempotency-Key makes it one).
    await context.close()
    context = await launch(dir, 'offline')
    page = await firstPage(context)
    await page.goto(`${through.ui}/`)
    await engineReady(page)
    sync = new SyncPanel(page)
    link.offline = false
    await context.setOffline(false)
    await expect(sync.pendingCount).toBeHidden()
    await expect
      .poll(async () => (await server.api(`/api/${collection}/offline-pen`, { token })).body)
      .toMatchObject({ name: 'Offline pen', price: 4 })
    expect((await writesPerDoc(server, token, collection))['offline-pen']).toBe(1)
    await expectConverged(page, server, token, collection)
  } finally {
    await context.close()
    fs.rmSync(dir, { recursive: true, force: true })
  }
})
