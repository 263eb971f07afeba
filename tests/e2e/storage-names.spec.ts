/**
 * Names over 255 bytes in the file browser (issue 36 #2): refused in the browser before anything is
 * made or queued — the upload picker names the refused file in an error toast and uploads the others,
 * the new-folder and rename dialogs show the rule next to the field and stay open, the queue's own
 * entry point refuses them too — so no upload sits "Waiting" for a server that answers 400 (it used to
 * answer 500 and be retried for ever). Screenshots at 1280 and 375 px in /tmp/shots/.
 */
import { STORAGE_NAME_MAX_BYTES } from '../../src/shared/constants'
import { STORAGE_TEXT } from '../../src/shared/texts'
import { type E2EServer, expect, openLoggedIn, test } from './fixtures'
import { StoragePage } from './pages/storage'
import type { FilesWindow } from './pages/storage-queue'
import { engineReady } from './pages/sync-panel'
import { WIDTHS } from './widths'

test.use({ serviceWorkers: 'block' })

const LONG = `${'n'.repeat(296)}.txt` // 300 bytes

async function names(server: E2EServer, token: string, folder: string): Promise<string[]> {
  const res = await server.api<{ name: string }[]>(`/api/storage/${folder}`, { token })
  return res.status === 200 ? res.body.map((e) => e.name).sort() : []
}

for (const { name: width, viewport } of WIDTHS) {
  test(`at ${width} width: a name over ${STORAGE_NAME_MAX_BYTES} bytes is refused before it is sent`, async ({
    page,
    server,
  }) => {
    await page.setViewportSize(viewport)
    const token = await server.login()
    const folder = `names-${width}`
    expect((await server.api('/api/storage', { token, json: { directory: folder } })).status).toBe(201)
    const uploads: string[] = []
    page.on('request', (r) => {
      if (r.url().includes('/api/uploads')) uploads.push(r.method())
    })
    await openLoggedIn(page, server, token, `/storage/${folder}`)
    await engineReady(page)
    const s = new StoragePage(page)
    await expect(s.table.or(s.grid)).toBeVisible()

    await s.filesInput.setInputFiles([
      { name: LONG, mimeType: 'text/plain', buffer: Buffer.from('long') },
      { name: 'fine.txt', mimeType: 'text/plain', buffer: Buffer.from('fine') },
    ])
    const refusal = page.locator('.mc-toast', { hasText: 'not uploaded' })
    await expect(refusal).toContainText(STORAGE_TEXT.nameTooLong(300))
    await expect(refusal).toContainText(`${'n'.repeat(40)}…`)
    await page.screenshot({ path: `/tmp/shots/storage-names-toast-${width}.png` })
    await expect(s.link('fine.txt')).toBeVisible()
    await expect.poll(() => names(server, token, folder)).toEqual(['fine.txt'])

    // The queue's own entry point (forms use it too) refuses it as well; nothing is stored.
    const queued = await page.evaluate(async (name) => {
      const q = (window as unknown as FilesWindow).__momentumFiles!
      try {
        await q.enqueueUploads('storage', [{ file: new Blob(['x']), name, folder: '' }])
        return 'queued'
      } catch (e) {
        return (e as Error).message
      }
    }, LONG)
    expect(queued).toBe(STORAGE_TEXT.nameTooLong(300))

    // The new-folder dialog says so next to the field and keeps the name for editing.
    await s.dismissToasts()
    await page.getByRole('button', { name: 'New folder' }).click()
    const dialog = s.dialog('New folder')
    await dialog.getByLabel('Folder name').fill('é'.repeat(128))
    await dialog.getByRole('button', { name: 'Create folder' }).click()
    await expect(dialog.locator('.field-error')).toHaveText(STORAGE_TEXT.nameTooLong(256))
    await expect(dialog.getByLabel('Folder name')).toHaveAttribute('aria-invalid', 'true')
    await page.screenshot({ path: `/tmp/shots/storage-names-dialog-${width}.png` })
    await dialog.getByLabel('Folder name').fill(`${'é'.repeat(127)}a`)
    await dialog.getByRole('button', { name: 'Create folder' }).click()
    await expect(dialog).toBeHidden()
    await expect.poll(() => names(server, token, folder)).toEqual(['fine.txt', `${'é'.repeat(127)}a`])

    // Only fine.txt was ever offered to the server's upload endpoint (one tus creation).
    expect(uploads.filter((m) => m === 'POST')).toHaveLength(1)
  })
}
