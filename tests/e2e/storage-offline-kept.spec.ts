/**
 * "Keep offline" (docs/contributing/storage.md): a file kept from the file browser's menu has its bytes in
 * IndexedDB, so its preview opens with the network off; a file not kept says it needs the network.
 * Stopping keeping it removes the copy, and so does logging out.
 */
import type { Page } from '@playwright/test'
import { Shell } from './pages/shell'
import { StoragePage } from './pages/storage'
import { filesDatabase } from './pages/storage-queue'
import { engineReady } from './pages/sync-panel'
import { expect, openLoggedIn, setNetwork, test } from './proxied'

test('a file kept offline opens offline; one not kept says it needs the network', async ({
  page,
  server,
  link,
  through,
}) => {
  const token = await server.login()
  const p = `kept-${Date.now().toString(36)}`
  const form = new FormData()
  form.append('file', new Blob(['kept copy of the minutes'], { type: 'text/plain' }), `${p}-minutes.txt`)
  form.append('file', new Blob(['only on the server'], { type: 'text/plain' }), `${p}-other.txt`)
  const res = await fetch(`${server.url}/api/storage`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  })
  expect(res.status).toBe(201)

  const storage = new StoragePage(page)
  await openLoggedIn(page, through, token, '/storage')
  await engineReady(page)
  await expect(storage.row(`${p}-minutes.txt`)).toBeVisible()
  await storage.menu(`${p}-minutes.txt`, 'Keep offline')
  await expect(storage.row(`${p}-minutes.txt`).getByTitle('Kept offline on this device')).toBeVisible()

  await setNetwork(page.context(), link, 'offline')
  await storage.link(`${p}-minutes.txt`).click()
  await expect(storage.preview).toContainText('kept copy of the minutes')
  await page.keyboard.press('Escape')
  await expect(storage.preview).toBeHidden()

  await storage.link(`${p}-other.txt`).click()
  await expect(storage.preview).toBeVisible()
  await expect(storage.preview).not.toContainText('only on the server')
  await page.keyboard.press('Escape')
  await setNetwork(page.context(), link, 'online')

  await storage.menu(`${p}-minutes.txt`, 'Stop keeping offline')
  await expect(storage.row(`${p}-minutes.txt`).getByTitle('Kept offline on this device')).toHaveCount(0)

  // Logging out removes kept copies: the next person on this browser cannot open them.
  const database = await filesDatabase(page)
  await storage.menu(`${p}-other.txt`, 'Keep offline')
  await expect(storage.row(`${p}-other.txt`).getByTitle('Kept offline on this device')).toBeVisible()
  expect(await keptCount(page, database)).toBe(1)
  await new Shell(page).logout()
  await expect(page).toHaveURL(/\/ui\/login/)
  expect(await keptCount(page, database)).toBe(0)
})

function keptCount(page: Page, database: string): Promise<number> {
  return page.evaluate(async (name) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open(name)
      req.onsuccess = () => resolve(req.result)
      req.onerror = () => reject(req.error)
    })
    try {
      return await new Promise<number>((resolve, reject) => {
        const req = db.transaction('kept').objectStore('kept').count()
        req.onsuccess = () => resolve(req.result)
        req.onerror = () => reject(req.error)
      })
    } finally {
      db.close()
    }
  }, database)
}
