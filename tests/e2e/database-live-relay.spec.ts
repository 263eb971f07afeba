/**
 * The sync worker's own notice to its page (src/sync/commit-relay.ts → src/app/data/committed-window.ts):
 * a server write shows up in the Database table from the rows the worker committed, without waiting
 * for Dexie's cross-context notification (issue 20, reactivity). To prove that path alone works, the
 * page's BroadcastChannel for Dexie's notices is made deaf: without the relay, the table would never
 * hear of the worker's writes and the new row would not appear.
 */
import { expect, openLoggedIn, test } from './fixtures'
import { DatabasePage } from './pages/database'
import { engineReady } from './pages/sync-panel'

const COLLECTION = 'relay'

test('a server write reaches the table through the worker relay alone', async ({ context, page, server }) => {
  const token = await server.login()
  for (const [id, city] of [
    ['m1', 'Porto'],
    ['m2', 'Faro'],
    ['m3', 'Braga'],
  ]) {
    await server.api(`/api/data/${COLLECTION}`, { token, json: { _id: id, city } })
  }
  // First visit, unchanged: the worker mirrors the collection into IndexedDB.
  await openLoggedIn(page, server, token, `/data/${COLLECTION}`)
  await engineReady(page)
  const first = new DatabasePage(page)
  await expect(first.row('m3')).toBeVisible()
  await page.close()

  // Second tab: Dexie's cross-context channel delivers nothing here (the worker still posts on it).
  const tab = await context.newPage()
  await tab.addInitScript(() => {
    const Real = globalThis.BroadcastChannel
    globalThis.BroadcastChannel = class extends Real {
      constructor(name: string) {
        super(name.startsWith('x-storagemutated') ? `deaf-${Math.random()}` : name)
      }
    }
  })
  await tab.goto(`${server.ui}/data/${COLLECTION}`)
  await engineReady(tab)
  const db = new DatabasePage(tab)
  await expect(db.row('m1')).toBeVisible()

  // A new document sorts first; an existing one changes: both come from the worker's relay.
  await server.api(`/api/data/${COLLECTION}`, { token, json: { _id: 'a0', city: 'Evora' } })
  await expect(db.row('a0')).toBeVisible()
  await expect(db.row('a0')).toContainText('Evora')
  await server.api(`/api/data/${COLLECTION}/m2`, { method: 'PATCH', token, json: { city: 'Tavira' } })
  await expect(db.row('m2')).toContainText('Tavira')
})
