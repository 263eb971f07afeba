/**
 * The first frame (src/app/FirstFrame.tsx, issue 20): a start on a collection this browser has mirrored
 * shows the collection's count and first rows from IndexedDB while the console's chunks are still
 * loading, with nothing to press, and the console then takes its place; a start as another user never
 * shows the previous user's rows, although the early read (src/app/boot.ts) opened their database. The
 * console's chunk is held back with a Playwright route (the service worker blocked, so the route sees
 * the request) to keep the frame on screen.
 */
import type { Page } from '@playwright/test'
import { readConsoleLocal } from '../helpers/console-local'
import { expect, openLoggedIn, passwordOf, storeLocal, test } from './fixtures'
import { engineReady } from './pages/sync-panel'

test.use({ serviceWorkers: 'block' })

const NAME = 'first-frame'
const id = (i: number) => `ff-${String(i).padStart(3, '0')}`

/** Holds the console's chunk (App-*.js) until the returned function is called. */
async function holdConsole(page: Page): Promise<() => void> {
  let release = () => {}
  const held = new Promise<void>((resolve) => {
    release = resolve
  })
  await page.route(/\/ui\/assets\/App-[\w-]+\.js$/, async (route) => {
    await held
    await route.continue()
  })
  return release
}

/** The room above the table the console keeps for a collection (src/app/table-offset.ts). */
const storedTableOffset = async (page: Page, collection: string) =>
  (await readConsoleLocal<Record<string, { offset: number }>>(page, 'tableOffsets'))?.[collection]?.offset ??
  0

/** Records whether the first frame was ever in the document, from the document's start. */
const FRAME_PROBE = `(() => {
  window.__frameSeen = false
  // The document itself: the frame may be drawn by a module script, before DOMContentLoaded.
  new MutationObserver(() => {
    if (document.querySelector('.first-frame')) window.__frameSeen = true
  }).observe(document, { childList: true, subtree: true })
})()`

test('a start on a mirrored collection shows its rows before the console has loaded', async ({
  page,
  server,
}) => {
  const token = await server.login()
  for (let i = 1; i <= 60; i++)
    await server.api(`/api/data/${NAME}`, { token, json: { _id: id(i), name: `Item ${i}` } })
  await openLoggedIn(page, server, token, `/data/${NAME}`)
  await engineReady(page)
  await expect(page.locator('.screen-head p.muted')).toHaveText('60 documents', { timeout: 30_000 })

  const release = await holdConsole(page)
  await page.goto(`${server.ui}/data/${NAME}`)
  const frame = page.locator('.first-frame')
  await expect(frame.getByRole('row', { name: new RegExp(id(1)) })).toBeVisible()
  await expect(frame.getByRole('heading', { level: 1 })).toHaveText(NAME)
  await expect(frame.locator('.screen-head p.muted')).toHaveText('60 documents')
  await expect(frame.getByRole('main')).toHaveAttribute('aria-busy', 'true')
  expect(await frame.locator('a, button, input').count()).toBe(0)

  release()
  await expect(frame).toHaveCount(0)
  // The console's own table, with links to each document.
  await expect(page.getByRole('link', { name: id(1), exact: true })).toBeVisible()
  await expect(page.locator('.screen-head p.muted')).toHaveText('60 documents')
})

test('a start as another user never shows the previous user’s rows', async ({ page, context, server }) => {
  const admin = await server.login()
  for (let i = 1; i <= 5; i++)
    await server.api(`/api/data/${NAME}-private`, { token: admin, json: { _id: id(i), name: `Secret ${i}` } })
  await openLoggedIn(page, server, admin, `/data/${NAME}-private`)
  await engineReady(page)
  await expect(page.locator('.screen-head p.muted')).toHaveText('5 documents', { timeout: 30_000 })
  await page.close()

  // Someone else's session is stored, as their login would store it, while the start hint (a
  // localStorage entry, boot.ts) still names the admin's database, as a browser could still hold it
  // (a login in a tab of an older version, storage cleared in part): the early read opens it.
  await server.createUser('ff-viewer', [])
  const viewer = await server.login('ff-viewer', passwordOf('ff-viewer'))
  const session = (await server.api('/api/auth/session', { token: viewer })).body
  const next = await context.newPage()
  await next.goto(`${server.url}/ui/manifest.webmanifest`) // the console's origin, without the console
  const hint = await next.evaluate(() => localStorage.getItem('momentum:start-database'))
  expect(hint).toContain('admin')
  await storeLocal(next, { token: viewer, session })
  await context.addInitScript(FRAME_PROBE)
  const release = await holdConsole(next)
  await next.goto(`${server.ui}/data/${NAME}-private`)
  // The splash stands while the console is held, past the first rows' longest wait (Entry.tsx).
  await expect(next.locator('.splash')).toBeVisible()
  await next.waitForTimeout(1_500)
  expect(await next.evaluate(() => (window as unknown as { __frameSeen: boolean }).__frameSeen)).toBe(false)
  await expect(next.getByText('Secret 1')).toHaveCount(0)
  release()
  // The viewer's own start rewrote the hint.
  await expect
    .poll(() => next.evaluate(() => localStorage.getItem('momentum:start-database')))
    .toContain('ff-viewer')
})

for (const width of [1280, 375]) {
  test(`the table stays where the first frame drew it when the console takes over (${width} px)`, async ({
    page,
    server,
  }) => {
    await page.setViewportSize({ width, height: 800 })
    const token = await server.login()
    for (let i = 1; i <= 30; i++)
      await server.api(`/api/data/${NAME}-y`, { token, json: { _id: id(i), name: `Item ${i}` } })
    await openLoggedIn(page, server, token, `/data/${NAME}-y`)
    await engineReady(page)
    await expect(page.locator('.screen-head p.muted')).toHaveText('30 documents', { timeout: 30_000 })
    // The screen has remembered where its table starts (local state, table-offset.ts).
    await expect.poll(() => storedTableOffset(page, `data/${NAME}-y`)).toBeGreaterThan(0)

    const release = await holdConsole(page)
    await page.goto(`${server.ui}/data/${NAME}-y`)
    const framed = page.locator('.first-frame .first-frame-table')
    await expect(framed).toBeVisible()
    const before = (await framed.boundingBox())!.y
    release()
    await expect(page.locator('.first-frame')).toHaveCount(0)
    const table = page.locator('.vt')
    await expect(table).toBeVisible()
    const after = (await table.boundingBox())!.y
    // A jump of the table under the user's eyes (or finger) is what the first frame is there to avoid.
    expect(Math.abs(after - before)).toBeLessThanOrEqual(2)
  })
}
