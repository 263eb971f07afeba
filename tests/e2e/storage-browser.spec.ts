/**
 * The file browser (/ui/storage/…, docs/using/storage.md) against the real server, at 1280 and 375 px:
 * three uploads with visible progress, a new folder, move (dialog and drag), copy with ' (COPY)', rename,
 * description, delete with the SPEC §8 confirmation; image and PDF previews (and an HTML file shown as
 * text, never as a page); another user's upload, move and delete appearing live; the mirrored tree
 * browsed offline; a folder of 3,000 files virtualized (list and grid: few rows in the DOM, the last
 * one reached by scrolling and by the keyboard). Screenshots go to test-results/screenshots/storage-*.png.
 *
 * Service workers are blocked so page.route sees the page's upload requests (to hold them and show the
 * progress); the browser reads the mirror from the page's own sync engine either way.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { Page, Route } from '@playwright/test'
import { FEEDBACK_TEXT, STORAGE_BROWSER_TEXT } from '../../src/shared/texts'
import { type E2EServer, expect, openLoggedIn, passwordOf, test } from './fixtures'
import { StoragePage } from './pages/storage'
import { engineReady } from './pages/sync-panel'
import { WIDTHS } from './widths'

const SHOTS = 'test-results/screenshots'

test.use({ serviceWorkers: 'block' })

/** A 2×2 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP4z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==',
  'base64',
)

/** A one-page PDF with a line of text, its cross-reference offsets computed so pdf.js reads it cleanly. */
function tinyPdf(text: string): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    '',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ]
  const stream = `BT /F1 24 Tf 30 100 Td (${text}) Tj ET`
  objects[3] = `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`
  let out = '%PDF-1.4\n'
  const offsets: number[] = []
  objects.forEach((body, i) => {
    offsets.push(out.length)
    out += `${i + 1} 0 obj\n${body}\nendobj\n`
  })
  const xref = out.length
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`
  for (const o of offsets) out += `${String(o).padStart(10, '0')} 00000 n \n`
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`
  return Buffer.from(out, 'latin1')
}

/** A short silent mono WAV: audio the browser decodes, so the preview's player loads its metadata. */
function silentWav(seconds = 0.2, rate = 8000): Buffer {
  const samples = Math.floor(seconds * rate)
  const b = Buffer.alloc(44 + samples * 2)
  b.write('RIFF', 0)
  b.writeUInt32LE(36 + samples * 2, 4)
  b.write('WAVEfmt ', 8)
  b.writeUInt32LE(16, 16)
  b.writeUInt16LE(1, 20)
  b.writeUInt16LE(1, 22)
  b.writeUInt32LE(rate, 24)
  b.writeUInt32LE(rate * 2, 28)
  b.writeUInt16LE(2, 32)
  b.writeUInt16LE(16, 34)
  b.write('data', 36)
  b.writeUInt32LE(samples * 2, 40)
  return b
}

/** Multipart upload straight to the server (another user, or setup). */
async function apiUpload(
  server: E2EServer,
  token: string,
  folder: string,
  files: { name: string; body: Buffer | string; type: string }[],
): Promise<void> {
  const form = new FormData()
  for (const f of files) {
    const bytes = typeof f.body === 'string' ? Buffer.from(f.body) : f.body
    form.append('file', new Blob([new Uint8Array(bytes)], { type: f.type }), f.name)
  }
  const res = await fetch(`${server.url}/api/storage/${folder}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  })
  expect(res.status, await res.clone().text()).toBe(201)
}

async function apiMkdir(server: E2EServer, token: string, path: string): Promise<void> {
  const i = path.lastIndexOf('/')
  const res = await server.api(`/api/storage/${i < 0 ? '' : path.slice(0, i)}`, {
    token,
    json: { directory: path.slice(i + 1) },
  })
  expect([201, 409]).toContain(res.status)
}

async function names(server: E2EServer, token: string, folder: string): Promise<string[]> {
  const res = await server.api<{ name: string }[]>(`/api/storage/${folder}`, { token })
  return res.status === 200 ? res.body.map((e) => e.name).sort() : []
}

/** Holds the page's upload requests until released, so the progress rows can be seen. */
async function holdUploads(page: Page): Promise<() => Promise<void>> {
  let release!: () => void
  const gate = new Promise<void>((r) => {
    release = r
  })
  // After the release the handler passes everything through (an aborted request is already handled).
  await page.route(/\/api\/uploads/, async (route: Route) => {
    await gate
    await route.continue().catch(() => undefined)
  })
  return async () => release()
}

async function openBrowser(page: Page, server: E2EServer, path = ''): Promise<StoragePage> {
  const token = await server.login()
  await openLoggedIn(page, server, token, `/storage${path ? `/${path}` : ''}`)
  await engineReady(page)
  const s = new StoragePage(page)
  await expect(s.table.or(s.grid)).toBeVisible()
  return s
}

for (const { name: width, viewport } of WIDTHS) {
  test.describe(`at ${width} width`, () => {
    test.use({ viewport })

    test('upload three files with progress, new folder, move, copy, rename, describe, delete', async ({
      page,
      server,
    }) => {
      const token = await server.login()
      const top = `work-${width}`
      const s = await openBrowser(page, server)
      await s.newFolder(top)
      await s.link(top).click()
      await expect(s.heading).toHaveText(top)
      await expect(page).toHaveURL(new RegExp(`/storage/${top}$`))

      // Three uploads, held at the network so the rows show their progress while they wait.
      const release = await holdUploads(page)
      await s.filesInput.setInputFiles([
        { name: 'a.txt', mimeType: 'text/plain', buffer: Buffer.from('alpha\n'.repeat(2000)) },
        { name: 'b.md', mimeType: 'text/markdown', buffer: Buffer.from('# bravo\n') },
        { name: 'photo.png', mimeType: 'image/png', buffer: PNG },
      ])
      for (const n of ['a.txt', 'b.md', 'photo.png']) await expect(s.uploadProgress(n)).toBeVisible()
      await expect(s.totalProgress).toBeVisible()
      await page.screenshot({ path: `${SHOTS}/storage-uploading-${width}.png` })
      await release()
      for (const n of ['a.txt', 'b.md', 'photo.png']) await expect(s.link(n)).toBeVisible()
      await expect(s.totalProgress).toBeHidden()
      expect(await names(server, token, top)).toEqual(['a.txt', 'b.md', 'photo.png'])

      await s.newFolder('sub')
      await expect(s.link('sub')).toBeVisible()

      // Move with the dialog's folder picker.
      await s.moveOrCopy('a.txt', 'Move', `/${top}/sub`)
      await expect(s.row('a.txt')).toHaveCount(0)
      await expect.poll(() => names(server, token, `${top}/sub`)).toEqual(['a.txt'])

      // Copy into the same folder: the server names it ' (COPY)'.
      await s.moveOrCopy('b.md', 'Copy', `/${top}`)
      await expect(s.link('b (COPY).md')).toBeVisible()
      expect(await names(server, token, top)).toContain('b (COPY).md')

      await s.rename('photo.png', 'holiday.png')
      await expect(s.link('holiday.png')).toBeVisible()
      await expect(s.row('photo.png')).toHaveCount(0)

      await s.describe('holiday.png', 'Beach, day two')
      await expect(s.row('holiday.png')).toContainText('Beach, day two')
      const meta = await server.api<{ description?: string }>(`/api/storage/${top}/holiday.png?meta=true`, {
        token,
      })
      expect(meta.body.description).toBe('Beach, day two')

      // Select two, Delete key, the SPEC §8 confirmation, the toast.
      await s.select('b.md').check()
      await s.select('b (COPY).md').check()
      await page.keyboard.press('Delete')
      const confirm = page.getByRole('dialog').filter({ hasText: 'Do you really want to delete 2 files?' })
      await expect(confirm).toContainText('This action cannot be undone.')
      await confirm.getByRole('button', { name: 'Delete 2' }).click()
      await expect(page.getByText('Deleted 2 item(s)')).toBeVisible()
      await expect(s.row('b.md')).toHaveCount(0)
      await expect(s.row('b (COPY).md')).toHaveCount(0)
      expect(await names(server, token, top)).toEqual(['holiday.png', 'sub'])
      await page.screenshot({ path: `${SHOTS}/storage-list-${width}.png`, fullPage: true })

      // The grid view with the image's thumbnail; the choice survives a reload.
      await page.getByRole('button', { name: 'Grid' }).click()
      await expect(s.row('holiday.png').locator('.storage-thumb img')).toHaveAttribute('src', /^blob:/)
      await page.reload()
      await engineReady(page)
      await expect(s.grid).toBeVisible()
      await expect(s.row('holiday.png').locator('.storage-thumb img')).toHaveAttribute('src', /^blob:/)
      await page.screenshot({ path: `${SHOTS}/storage-grid-${width}.png`, fullPage: true })
      // A toast shown after the reload can sit over the view switch, and pointing at it pauses the
      // toast (flaky on CI: the click waited a minute behind it): close it as a user would.
      for (const close of await page
        .locator('.mc-toast')
        .getByRole('button', { name: FEEDBACK_TEXT.close })
        .all())
        await close.click({ timeout: 2_000 }).catch(() => undefined)
      await page.getByRole('button', { name: 'List' }).click()
      await expect(s.table).toBeVisible()

      // The folder tree (a drawer at 375 px) leads into the sub-folder.
      await s.openFolderInTree('sub')
      await expect(s.heading).toHaveText('sub')
      await expect(s.link('a.txt')).toBeVisible()
    })

    test('image, PDF and audio previews; HTML shown as text', async ({ page, server }) => {
      const token = await server.login()
      const folder = `preview-${width}`
      await apiMkdir(server, token, folder)
      await apiUpload(server, token, folder, [
        { name: 'dot.png', body: PNG, type: 'image/png' },
        { name: 'letter.pdf', body: tinyPdf('Hello from a PDF'), type: 'application/pdf' },
        { name: 'tone.wav', body: silentWav(), type: 'audio/wav' },
        {
          name: 'page.html',
          body: '<h1>Hi</h1><script>window.parent.__pwned = true</script>',
          type: 'text/html',
        },
      ])
      const s = await openBrowser(page, server, folder)
      await expect(s.link('dot.png')).toBeVisible()

      await s.link('dot.png').click()
      await expect(page).toHaveURL(new RegExp(`/storage/${folder}/dot.png$`))
      const img = s.preview.getByRole('img', { name: 'dot.png' })
      await expect(img).toBeVisible()
      await expect.poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBe(2)
      await page.keyboard.press('Escape')
      await expect(s.preview).toBeHidden()
      await expect(page).toHaveURL(new RegExp(`/storage/${folder}$`))

      // Keyboard: the row's link is focusable and Enter opens it.
      await s.link('letter.pdf').focus()
      await page.keyboard.press('Enter')
      const canvas = s.preview.getByRole('img', { name: 'Page 1 of letter.pdf' })
      await expect(canvas).toBeVisible()
      await expect(s.preview.getByTestId('pdf-pages')).toHaveText('1 page')
      // pdf.js drew something: the canvas is not blank.
      await expect
        .poll(() =>
          canvas.evaluate((c) => {
            const el = c as HTMLCanvasElement
            const data = el.getContext('2d')!.getImageData(0, 0, el.width, el.height).data
            let dark = 0
            for (let i = 0; i < data.length; i += 4) if (data[i]! < 128 && data[i + 3]! > 0) dark++
            return dark
          }),
        )
        .toBeGreaterThan(50)
      await page.screenshot({ path: `${SHOTS}/storage-preview-pdf-${width}.png` })
      await s.preview.getByRole('button', { name: 'Close preview' }).click()
      await expect(s.preview).toBeHidden()

      // Audio plays from a blob: URL (the console CSP's media-src allows blob:).
      await s.link('tone.wav').click()
      const audio = s.preview.locator('audio')
      await expect(audio).toHaveAttribute('src', /^blob:/)
      await expect.poll(() => audio.evaluate((a) => (a as HTMLAudioElement).readyState)).toBeGreaterThan(0)
      await page.keyboard.press('Escape')
      await expect(s.preview).toBeHidden()

      await s.link('page.html').click()
      await expect(s.preview.getByTestId('storage-text-preview')).toContainText('<script>')
      await expect(s.preview.getByText(STORAGE_BROWSER_TEXT.htmlAsText)).toBeVisible()
      await expect(page.locator('iframe')).toHaveCount(0)
      expect(await page.evaluate(() => (window as unknown as { __pwned?: boolean }).__pwned)).toBeUndefined()
    })
  })
}

test('drag a file onto a folder moves it; Ctrl+A selects all, Escape clears', async ({ page, server }) => {
  const token = await server.login()
  await apiMkdir(server, token, 'drag')
  await apiMkdir(server, token, 'drag/target')
  await apiUpload(server, token, 'drag', [
    { name: 'one.txt', body: '1', type: 'text/plain' },
    { name: 'two.txt', body: '2', type: 'text/plain' },
  ])
  await page.setViewportSize({ width: 1280, height: 800 })
  const s = await openBrowser(page, server, 'drag')
  await expect(s.link('one.txt')).toBeVisible()

  await s.row('one.txt').dragTo(s.row('target'))
  await expect(s.row('one.txt')).toHaveCount(0)
  await expect.poll(() => names(server, token, 'drag/target')).toEqual(['one.txt'])

  // Onto a folder of the tree as well.
  await s.row('two.txt').dragTo(s.tree.locator('[data-folder="drag/target"]'))
  await expect.poll(() => names(server, token, 'drag/target')).toEqual(['one.txt', 'two.txt'])

  await s.heading.click()
  await page.keyboard.press('Control+a')
  await expect(page.getByRole('region', { name: 'Selection' })).toContainText('1 item selected')
  await page.keyboard.press('Escape')
  await expect(page.getByRole('region', { name: 'Selection' })).toBeHidden()
})

test("another user's upload, move and delete appear without a refresh", async ({ page, server }) => {
  const admin = await server.login()
  await apiMkdir(server, admin, 'live')
  await server.createUser('uploader', ['storage:crud'])
  const other = await server.login('uploader', passwordOf('uploader'))
  await page.setViewportSize({ width: 1280, height: 800 })
  const s = await openBrowser(page, server, 'live')
  await expect(page.getByText(STORAGE_BROWSER_TEXT.empty)).toBeVisible()

  await apiUpload(server, other, 'live', [{ name: 'from-bob.txt', body: 'hi', type: 'text/plain' }])
  await expect(s.link('from-bob.txt')).toBeVisible()

  const moved = await server.api('/api/storage/live/from-bob.txt', {
    method: 'PATCH',
    token: other,
    json: { move: 'live/renamed-by-bob.txt' },
  })
  expect(moved.status).toBe(200)
  await expect(s.link('renamed-by-bob.txt')).toBeVisible()
  await expect(s.row('from-bob.txt')).toHaveCount(0)

  expect(
    (await server.api('/api/storage/live/renamed-by-bob.txt', { method: 'DELETE', token: other })).status,
  ).toBe(200)
  await expect(s.row('renamed-by-bob.txt')).toHaveCount(0)
})

test('the mirrored tree is browsable offline; a file not kept offline says it needs the network', async ({
  page,
  server,
  context,
}) => {
  const token = await server.login()
  await apiMkdir(server, token, 'trip')
  await apiMkdir(server, token, 'trip/day1')
  await apiUpload(server, token, 'trip/day1', [
    { name: 'notes.txt', body: 'offline notes', type: 'text/plain' },
    { name: 'kept.txt', body: 'kept for the road', type: 'text/plain' },
  ])
  await page.setViewportSize({ width: 1280, height: 800 })
  const s = await openBrowser(page, server, 'trip/day1')
  await expect(s.link('notes.txt')).toBeVisible()
  await s.menu('kept.txt', 'Keep offline')
  await expect(s.row('kept.txt').getByText('Kept offline')).toBeAttached()
  await s.tree.getByRole('link', { name: 'Storage', exact: true }).click()
  await expect(s.link('trip')).toBeVisible()

  await context.setOffline(true)
  await s.link('trip').click()
  await expect(s.link('day1')).toBeVisible()
  await s.link('day1').click()
  await expect(s.link('notes.txt')).toBeVisible()
  await s.search.fill('note')
  await expect(s.row('kept.txt')).toHaveCount(0)
  await s.search.fill('')

  await s.link('notes.txt').click()
  await expect(s.preview.getByText(STORAGE_BROWSER_TEXT.needsNetwork)).toBeVisible()
  await page.keyboard.press('Escape')
  await s.link('kept.txt').click()
  await expect(s.preview.getByTestId('storage-text-preview')).toHaveText('kept for the road')
  await page.keyboard.press('Escape')
  await context.setOffline(false)
})

test('a read-only user gets no write controls; the Web Server root is the same browser', async ({
  page,
  server,
}) => {
  const admin = await server.login()
  await apiMkdir(server, admin, 'shared')
  await apiUpload(server, admin, 'shared', [{ name: 'readme.txt', body: 'read me', type: 'text/plain' }])
  await server.createUser('reader', ['storage:r'])
  const reader = await server.login('reader', passwordOf('reader'))
  await page.setViewportSize({ width: 1280, height: 800 })
  await openLoggedIn(page, server, reader, '/storage/shared')
  await engineReady(page)
  const s = new StoragePage(page)
  await expect(s.link('readme.txt')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Upload files' })).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'New folder' })).toHaveCount(0)
  await s.menuButton('readme.txt').click()
  const items = s.row('readme.txt').getByRole('menuitem')
  await expect(items).toHaveText(['Download', 'Copy link', 'Keep offline'])
  await page.keyboard.press('Escape')
  await s.select('readme.txt').check()
  await page.keyboard.press('Delete')
  await expect(page.getByRole('dialog')).toHaveCount(0)

  // The Web Server root: same screen, its own tree, its own writes.
  await openLoggedIn(page, server, admin, '/static')
  await engineReady(page)
  await expect(s.heading).toHaveText('Web Server')
  await s.newFolder('assets')
  await expect(s.link('assets')).toBeVisible()
  const listing = await server.api<{ name: string }[]>('/api/static', { token: admin })
  expect(listing.body.map((e) => e.name)).toContain('assets')
  expect(await names(server, admin, '')).not.toContain('assets')
})

test('a whole folder uploads with its sub-folders; files dropped on the list upload there', async ({
  page,
  server,
}) => {
  const token = await server.login()
  await apiMkdir(server, token, 'inbox')
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'h4-folder-'))
  fs.mkdirSync(path.join(dir, 'photos/inner'), { recursive: true })
  fs.writeFileSync(path.join(dir, 'photos/top.txt'), 'top')
  fs.writeFileSync(path.join(dir, 'photos/inner/deep.txt'), 'deep')
  await page.setViewportSize({ width: 1280, height: 800 })
  const s = await openBrowser(page, server, 'inbox')

  await s.folderInput.setInputFiles(path.join(dir, 'photos'))
  await expect(s.link('photos')).toBeVisible()
  await expect.poll(() => names(server, token, 'inbox/photos')).toEqual(['inner', 'top.txt'])
  await expect.poll(() => names(server, token, 'inbox/photos/inner')).toEqual(['deep.txt'])
  fs.rmSync(dir, { recursive: true, force: true })

  // A drop of files from the desktop onto the listing.
  await page.getByTestId('storage-drop').evaluate((zone) => {
    const data = new DataTransfer()
    data.items.add(new File(['dropped'], 'dropped.txt', { type: 'text/plain' }))
    zone.dispatchEvent(new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }))
    zone.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }))
  })
  await expect(s.link('dropped.txt')).toBeVisible()
  expect(await names(server, token, 'inbox')).toEqual(['dropped.txt', 'photos'])
})

test('a folder of 3,000 files is virtualized: few rows in the DOM, the last one reached by scrolling and by the keyboard', async ({
  page,
  server,
}) => {
  test.setTimeout(240_000)
  const token = await server.login()
  const COUNT = 3000
  const fileName = (i: number) => `f-${String(i).padStart(4, '0')}.txt`
  const last = fileName(COUNT - 1)
  await apiMkdir(server, token, 'many')
  // Multipart uploads of UPLOAD_FILES_MAX (20) files each, four at a time: each file gets its entry document.
  const batches: number[][] = []
  for (let i = 0; i < COUNT; i += 20) batches.push(Array.from({ length: 20 }, (_, k) => i + k))
  for (let i = 0; i < batches.length; i += 4)
    await Promise.all(
      batches.slice(i, i + 4).map((b) =>
        apiUpload(
          server,
          token,
          'many',
          b.map((n) => ({ name: fileName(n), body: `${n}`, type: 'text/plain' })),
        ),
      ),
    )
  await page.setViewportSize({ width: 1280, height: 800 })
  const s = await openBrowser(page, server, 'many')
  await expect(page.getByText('3,000 items')).toBeVisible({ timeout: 60_000 })
  await expect(s.table).toHaveAttribute('aria-rowcount', String(COUNT + 1))
  const domRows = page.locator('.storage-table tbody tr')
  await expect(s.link(fileName(0))).toBeVisible()
  expect(await domRows.count()).toBeGreaterThan(5)
  expect(await domRows.count()).toBeLessThan(100)
  await expect(s.row(last)).toHaveCount(0)

  // Scrolled to the end: the last file is drawn and seen, still with few rows in the DOM.
  const scroller = page.locator('.storage-scroll')
  await scroller.evaluate((el) => {
    el.scrollTop = el.scrollHeight
  })
  await expect(s.link(last)).toBeInViewport()
  await expect(s.row(last)).toHaveAttribute('aria-rowindex', String(COUNT + 1))
  expect(await domRows.count()).toBeLessThan(100)

  // Keyboard: back at the top, arrows move the focused row, End reaches the last and scrolls it into view.
  await scroller.evaluate((el) => {
    el.scrollTop = 0
  })
  await s.link(fileName(0)).focus()
  await page.keyboard.press('ArrowDown')
  await expect(s.row(fileName(1))).toBeFocused()
  await page.keyboard.press('End')
  await expect(s.row(last)).toBeFocused()
  await expect(s.row(last)).toBeInViewport()
  await page.keyboard.press('ArrowUp')
  await expect(s.row(fileName(COUNT - 2))).toBeFocused()
  await expect(s.row(fileName(COUNT - 2))).toBeInViewport()
  // Page Up / Page Down move by a screenful; Enter on a row opens its file.
  await page.keyboard.press('PageUp')
  await page.keyboard.press('PageDown')
  await expect(s.row(fileName(COUNT - 2))).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(new RegExp(`/storage/many/${fileName(COUNT - 2)}$`))
  await page.keyboard.press('Escape')
  await expect(s.preview).toBeHidden()

  // The grid: rows of cards, also virtualized; End reaches the last card.
  await page.getByRole('button', { name: 'Grid' }).click()
  await expect(s.grid).toBeVisible()
  const cards = page.locator('.storage-grid .storage-card')
  await expect(cards.first()).toBeVisible()
  expect(await cards.count()).toBeLessThan(200)
  const perRow = Number(await s.grid.getAttribute('aria-colcount'))
  expect(perRow).toBeGreaterThan(1)
  await expect(s.grid).toHaveAttribute('aria-rowcount', String(Math.ceil(COUNT / perRow)))
  await cards.first().focus()
  await page.keyboard.press('ArrowRight')
  await expect(s.row(fileName(1))).toBeFocused()
  await page.keyboard.press('ArrowDown')
  await expect(s.row(fileName(1 + perRow))).toBeFocused()
  await page.keyboard.press('End')
  await expect(s.row(last)).toBeFocused()
  await expect(s.row(last)).toBeInViewport()
  expect(await cards.count()).toBeLessThan(200)
  await page.screenshot({ path: `${SHOTS}/storage-grid-3000.png` })
  await page.getByRole('button', { name: 'List' }).click()
})
