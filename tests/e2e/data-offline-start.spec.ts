/**
 * An offline start on a collection (issue 20, docs/contributing/performance.md "3. Offline cold start"): the table's
 * first screen comes from the local copy read before the console's chunks have arrived
 * (src/app/data/first-screen.ts), so the screen never shows "Loading…" in place of its count and its
 * first rows are there when it appears; the live queries then take over (a write made offline shows at
 * once). Real server, real service worker; the socket proxy cuts the network for the page, its worker
 * and the service worker alike.
 */
import type { Page } from '@playwright/test'
import { serviceWorkerReady } from './pages/service-worker'
import { engineReady, mutate } from './pages/sync-panel'
import { expect, openLoggedIn, test } from './proxied'

const NAME = 'offline-start'
const id = (i: number) => `os-${String(i).padStart(3, '0')}`

/** Records every text the collection's count line shows, from the document's first mutation on. */
const COUNT_PROBE = `(() => {
  window.__counts = []
  const seen = () => {
    const p = document.querySelector('.screen-head p.muted')
    const text = p ? p.textContent : null
    if (text && window.__counts[window.__counts.length - 1] !== text) window.__counts.push(text)
  }
  // The document itself: the first frame may be drawn by a module script, before DOMContentLoaded.
  new MutationObserver(seen).observe(document, { childList: true, subtree: true, characterData: true })
})()`

const counts = (page: Page) => page.evaluate(() => (window as unknown as { __counts: string[] }).__counts)

test('an offline start on a collection shows its count and first rows from the local copy at once', async ({
  page,
  context,
  server,
  link,
  through,
}) => {
  const token = await server.login()
  for (let i = 1; i <= 120; i++)
    await server.api(`/api/data/${NAME}`, { token, json: { _id: id(i), name: `Item ${i}` } })
  await openLoggedIn(page, through, token, `/data/${NAME}`)
  await engineReady(page)
  await serviceWorkerReady(page)
  await expect(page.locator('.screen-head p.muted')).toHaveText('120 documents', { timeout: 30_000 })

  link.offline = true
  link.killEngineSockets()
  await context.addInitScript(COUNT_PROBE)
  const response = await page.goto(`${through.ui}/data/${NAME}`)
  expect(response?.fromServiceWorker()).toBe(true)
  await expect(page.getByRole('row', { name: new RegExp(id(1)) })).toBeVisible()
  await expect(page.locator('.screen-head p.muted')).toHaveText('120 documents')
  // The count line never said "Loading…": the first render already had the local copy's figures.
  expect(await counts(page)).toEqual(['120 documents'])

  // The live queries took over: an offline write shows in the same table.
  await engineReady(page)
  expect((await mutate(page, 'create', `data/${NAME}`, 'os-000', { name: 'Offline' })).ok).toBe(true)
  await expect(page.getByRole('row', { name: /os-000/ })).toBeVisible()
  await expect(page.locator('.screen-head p.muted')).toContainText('121 documents')
})
