/**
 * A file queued offline still goes out when the device's storage fills up before the network comes
 * back (docs/decisions/storage.md "A full disk does not hold back stored bytes"). The origin's quota is
 * lowered (Storage.overrideQuotaForOrigin, as storage-offline-quota.spec.ts does) and then filled to the
 * last byte by a scratch database, as a large mirror or kept copies would. The queue cannot write its
 * bookkeeping then, but its bytes are stored: it sends them, and with no room to mark the item done
 * removes it. Before, every pass failed on the 'running' mark and the file never left.
 */
import { listFolder, openStorageWithQuota, queueRows } from './pages/storage-queue'
import { expect, setNetwork, test } from './proxied'

test.use({ serviceWorkers: 'block' })

const QUOTA = 5_000_000

/** Writes incompressible records into a scratch database until not even a small one fits. */
async function fillStorage(page: import('@playwright/test').Page): Promise<number> {
  return page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open('e2e-filler', 1)
      req.onupgradeneeded = () => req.result.createObjectStore('fill', { autoIncrement: true })
      req.onsuccess = () => resolve(req.result)
      req.onerror = () => reject(req.error)
    })
    const put = (size: number) =>
      new Promise<boolean>((resolve) => {
        const bytes = new Uint8Array(size)
        for (let i = 0; i < size; i += 65_536) crypto.getRandomValues(bytes.subarray(i, i + 65_536))
        const tx = db.transaction('fill', 'readwrite')
        tx.objectStore('fill').add(bytes)
        tx.oncomplete = () => resolve(true)
        tx.onabort = () => resolve(false)
      })
    let written = 0
    for (let size = 256_000; size >= 64; size = Math.floor(size / 4)) {
      while (await put(size)) written += size
    }
    db.close()
    return written
  })
}

test('a file queued offline goes out even when the disk filled up meanwhile', async ({
  page,
  server,
  link,
  through,
}) => {
  const { token, storage, database, restoreQuota } = await openStorageWithQuota(
    page,
    server,
    through,
    'full',
    QUOTA,
  )
  const name = `full-${Date.now().toString(36)}.txt`

  await setNetwork(page.context(), link, 'offline')
  await storage.filesInput.setInputFiles([{ name, mimeType: 'text/plain', buffer: Buffer.from('queued') }])
  await expect.poll(async () => (await queueRows(page, database)).length, { timeout: 30_000 }).toBe(1)
  expect(await fillStorage(page)).toBeGreaterThan(0)

  await setNetwork(page.context(), link, 'online')
  await expect
    .poll(async () => (await listFolder(server, token)).map((e) => e.name).filter((n) => n === name), {
      timeout: 30_000,
    })
    .toEqual([name])
  // Marked done if a write fitted after all, otherwise removed: never left to be sent again.
  await expect
    .poll(async () => (await queueRows(page, database)).map((r) => r.status), { timeout: 30_000 })
    .not.toContain('waiting')
  expect((await queueRows(page, database)).map((r) => r.status)).not.toContain('running')
  await restoreQuota()
})
