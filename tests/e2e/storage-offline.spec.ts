/**
 * Offline writes of Storage in real Chromium against the real server (docs/contributing/storage.md): files
 * and a folder added in the file browser with the network off are kept in IndexedDB, survive a reload
 * (the folder's ghost rows too), are listed in the
 * Sync panel's Uploads section, and arrive exactly once when the network returns (the server's listing
 * and its change log: one write per file). Then the same with every console tab closed, sent by the
 * service worker's Background Sync, fired through the DevTools protocol as pwa-background-sync.spec.ts
 * does for the outbox.
 */
import { STORAGE_SYNC_TAG, STORAGE_UPLOADS_LOCK } from '../../src/shared/constants'
import { registrationId, serviceWorkerReady } from './pages/service-worker'
import { StoragePage } from './pages/storage'
import {
  enqueueTextFiles,
  filesDatabase,
  listFolder,
  queueRows,
  UploadsSection,
  writesPerPath,
} from './pages/storage-queue'
import { engineReady, SyncPanel } from './pages/sync-panel'
import { expect, openLoggedIn, setNetwork, test } from './proxied'
import { WIDTHS } from './widths'

const unique = (label: string) => `${label}-${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`

test('files added offline survive a reload and arrive exactly once on reconnect', async ({
  context,
  server,
  link,
  through,
}) => {
  const token = await server.login()
  const page = await context.newPage()
  const storage = new StoragePage(page)
  await openLoggedIn(page, through, token, '/storage')
  await serviceWorkerReady(page)
  await engineReady(page)
  await expect(storage.table.or(storage.grid)).toBeVisible()
  const database = await filesDatabase(page)
  const p = unique('offline')
  const names = [`${p}-a.txt`, `${p}-b.txt`, `${p}-notes-{{TIMESTAMP}}.txt`]

  await setNetwork(context, link, 'offline')
  // Through the file browser: a new folder and three files, all queued.
  await storage.newFolder(p)
  await storage.filesInput.setInputFiles(
    names.map((name, i) => ({ name, mimeType: 'text/plain', buffer: Buffer.from('x'.repeat(5 + i)) })),
  )
  await expect(storage.row(names[0]!)).toBeVisible()
  // The toolbar's badge counts them with the outbox's changes.
  await expect(page.getByTestId('sync-pending-count')).toHaveText('4')

  const panel = new SyncPanel(page)
  const uploads = new UploadsSection(page)
  await panel.open()
  await expect(uploads.items).toHaveCount(4)
  await expect(uploads.item(names[0]!)).toHaveAttribute('data-status', 'waiting')
  // A real progress bar per file, named for it, and one in total.
  await expect(
    uploads.section.getByRole('progressbar', { name: `Upload progress of ${names[1]}` }),
  ).toBeVisible()
  await expect(uploads.section.getByRole('progressbar', { name: 'Total progress' })).toBeVisible()

  // A reload while offline: the service worker serves the console, the queue is still there.
  await page.reload()
  await engineReady(page)
  const rows = await queueRows(page, database)
  expect(rows.map((r) => [r.op.kind, r.status])).toEqual([
    ['mkdir', 'waiting'],
    ['upload', 'waiting'],
    ['upload', 'waiting'],
    ['upload', 'waiting'],
  ])
  // The name stamp was applied when the file was queued.
  const stamped = rows[3]!.op.name!
  expect(stamped).toMatch(new RegExp(`^${p}-notes-\\d{4}-\\d{2}-\\d{2}_\\d{2}-\\d{2}\\.txt$`))
  await expect(storage.row(names[0]!)).toBeVisible()
  expect((await server.api(`/api/storage/${p}`, { token })).status).toBe(404)

  await setNetwork(context, link, 'online')
  await expect
    .poll(async () => (await queueRows(page, database)).map((r) => r.status), { timeout: 30_000 })
    .toEqual(['done', 'done', 'done', 'done'])
  const listed = (await listFolder(server, token)).filter((e) => e.name.startsWith(p))
  expect(listed.map((e) => [e.name, e.type, e.size]).sort()).toEqual(
    [
      [p, 'directory', 0],
      [names[0], 'file', 5],
      [names[1], 'file', 6],
      [stamped, 'file', 7],
    ].sort(),
  )
  // Exactly once: one write of each path in the server's change log.
  const writes = await writesPerPath(server, token)
  expect(Object.fromEntries(Object.entries(writes).filter(([path]) => path.startsWith(p)))).toEqual({
    [p]: 1,
    [names[0]!]: 1,
    [names[1]!]: 1,
    [stamped]: 1,
  })

  // The panel follows: every upload done, total at 100 %.
  await panel.open()
  await expect(uploads.item(names[1]!)).toHaveAttribute('data-status', 'done')
  await expect(uploads.total).toHaveAttribute('value', String(5 + 6 + 7))
  await page.getByRole('button', { name: 'Clear finished' }).click()
  await expect(uploads.items).toHaveCount(0)
})

test('with the console closed, Background Sync sends queued files exactly once', async ({
  context,
  server,
  link,
  through,
}) => {
  const token = await server.login()
  const page = await context.newPage()
  await openLoggedIn(page, through, token, '/')
  await serviceWorkerReady(page)
  await engineReady(page)
  const database = await filesDatabase(page)
  const folder = unique('bgsync')
  expect(
    (await server.api(`/api/storage`, { token, json: { directory: folder } })).status,
    'make the target folder',
  ).toBe(201)

  // The console's manifest page: same origin, no console running (see pwa-background-sync.spec.ts).
  const observer = await context.newPage()
  await observer.goto(`${through.ui}/manifest.webmanifest`)
  const cdp = await context.newCDPSession(observer)
  const id = await registrationId(cdp, `${through.ui}/`)

  await setNetwork(context, link, 'offline')
  await enqueueTextFiles(page, { 'one.txt': 'first file', 'two.txt': 'second' }, folder)
  await expect
    .poll(() =>
      page.evaluate(async () => {
        const reg = (await navigator.serviceWorker.ready) as ServiceWorkerRegistration & {
          sync: { getTags(): Promise<string[]> }
        }
        return reg.sync.getTags()
      }),
    )
    .toContain(STORAGE_SYNC_TAG)

  await page.close()
  await expect
    .poll(() =>
      observer.evaluate(
        async (name) => (await navigator.locks.query()).held?.some((l) => l.name === name),
        STORAGE_UPLOADS_LOCK,
      ),
    )
    .toBe(false)
  expect((await queueRows(observer, database)).map((r) => r.status)).toEqual(['waiting', 'waiting'])
  await setNetwork(context, link, 'online')

  await cdp.send('ServiceWorker.dispatchSyncEvent', {
    origin: new URL(through.ui).origin,
    registrationId: id,
    tag: STORAGE_SYNC_TAG,
    lastChance: false,
  })
  await expect
    .poll(async () => (await queueRows(observer, database)).map((r) => r.status), { timeout: 30_000 })
    .toEqual(['done', 'done'])
  const listed = await listFolder(server, token, folder)
  expect(listed.map((e) => [e.name, e.size]).sort()).toEqual([
    ['one.txt', 10],
    ['two.txt', 6],
  ])
  const writes = await writesPerPath(server, token)
  expect([writes[`${folder}/one.txt`], writes[`${folder}/two.txt`]]).toEqual([1, 1])
})

for (const { name: width, viewport } of WIDTHS) {
  test.describe(width, () => {
    test.use({ viewport })

    test('the Uploads section: a refused upload fails with the server message and is retried, a cancelled one never arrives', async ({
      context,
      page,
      server,
      link,
      through,
    }) => {
      const token = await server.login()
      await openLoggedIn(page, through, token, '/')
      await engineReady(page)
      const folder = unique('later')
      const panel = new SyncPanel(page)
      const uploads = new UploadsSection(page)

      // The target folder does not exist yet: the server refuses the upload before any byte, for good.
      await enqueueTextFiles(page, { 'report.txt': 'quarterly' }, folder)
      await panel.open()
      const failed = uploads.item(`${folder}/report.txt`)
      await expect(failed).toHaveAttribute('data-status', 'failed')
      await expect(failed.getByRole('alert')).not.toBeEmpty()
      // Nothing of the section runs off the side, at phone width too.
      const box = (await failed.getByRole('button', { name: `Retry ${folder}/report.txt` }).boundingBox())!
      expect(box.x + box.width).toBeLessThanOrEqual(viewport.width)

      // Retry from the keyboard once the folder exists.
      expect((await server.api('/api/storage', { token, json: { directory: folder } })).status).toBe(201)
      await failed.getByRole('button', { name: `Retry ${folder}/report.txt` }).focus()
      await page.keyboard.press('Enter')
      await expect(failed).toHaveAttribute('data-status', 'done')

      // Offline: one file cancelled from the keyboard before it left, one kept.
      await setNetwork(context, link, 'offline')
      await enqueueTextFiles(page, { 'drop.txt': 'never sent', 'keep.txt': 'sent' }, folder)
      const dropped = uploads.item(`${folder}/drop.txt`)
      await expect(dropped).toHaveAttribute('data-status', 'waiting')
      await dropped.getByRole('button', { name: `Cancel ${folder}/drop.txt` }).focus()
      await page.keyboard.press('Enter')
      await expect(dropped).toHaveAttribute('data-status', 'cancelled')
      await setNetwork(context, link, 'online')
      // keep.txt was queued after drop.txt: once it is done, drop.txt had its turn and was skipped.
      await expect(uploads.item(`${folder}/keep.txt`)).toHaveAttribute('data-status', 'done', {
        timeout: 30_000,
      })
      const listed = await listFolder(server, token, folder)
      expect(listed.map((e) => e.name).sort()).toEqual(['keep.txt', 'report.txt'])
    })
  })
}
