/**
 * A form with a photo field filled with no network (issue 17, docs/operating/forms.md "File and photo fields"),
 * at desktop and 375 px: with the server cut off by the socket proxy (a real cut for the page, its
 * workers and the service worker), the photo goes into the Storage upload queue and the submission
 * waits in the forms queue; both survive a reload; on reconnect the photo arrives once in storage
 * (same bytes) and then the submission arrives once, its answer the photo's storage path.
 */
import { FORM_FILES_TEXT, FORMS_SYNC_TEXT, FORMS_TEXT } from '../../src/shared/texts'
import { passwordOf } from './fixtures'
import { FillPage } from './pages/forms'
import { serviceWorkerReady } from './pages/service-worker'
import { writesPerPath } from './pages/storage-queue'
import { engineReady, SyncPanel } from './pages/sync-panel'
import { expect, openLoggedIn, setNetwork, test } from './proxied'
import { WIDTHS } from './widths'

type Doc = Record<string, unknown>

/** A small PNG-like payload: the bytes are compared, not decoded. */
const photoBytes = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 7 + 3) % 256))

for (const { name, viewport } of WIDTHS) {
  test(`a photo taken offline is uploaded once and the submission names it (${name})`, async ({
    browser,
    server,
    link,
    through,
  }) => {
    test.setTimeout(180_000)
    const admin = await server.login()
    const id = `photos-${name}`
    // A member of the form's group, not an editor (an editor gets the editor at this address), whose
    // only storage right is to create files in the form's folder (docs/operating/forms.md).
    const filler = `inspector-${name}`
    await server.createUser(filler, [`storage/forms/${id}:c`])
    const token = await server.login(filler, passwordOf(filler))
    const created = await server.api(`/api/forms`, {
      token: admin,
      json: {
        _id: id,
        title: 'Damage photos',
        target: `data/${id}`,
        fill: 'group',
        group: `g-${filler}`,
        fields: [
          { name: 'note', label: 'Note', type: 'text', required: true },
          { name: 'photo', label: 'Photo', type: 'file', accept: 'image/*', capture: true, required: true },
        ],
      },
    })
    expect(created.status, JSON.stringify(created.body)).toBe(201)

    const context = await browser.newContext({ viewport })
    try {
      const page = await context.newPage()
      await openLoggedIn(page, through, token, `/forms/${id}`)
      await expect(page.getByRole('heading', { name: 'Damage photos' })).toBeVisible()
      await serviceWorkerReady(page)
      await engineReady(page)
      const form = new FillPage(page)
      const input = form.field('Photo')
      await expect(input).toHaveAttribute('type', 'file')
      await expect(input).toHaveAttribute('accept', 'image/*')
      await expect(input).toHaveAttribute('capture', 'environment')

      // A file of another type is refused at once, with the reason under the field.
      await input.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hi') })
      await expect(
        page.getByRole('alert').filter({ hasText: 'notes.txt is not an accepted file' }),
      ).toBeVisible()

      await setNetwork(context, link, 'offline')
      await form.field('Note').fill('Broken window')
      await input.setInputFiles({ name: 'window.png', mimeType: 'image/png', buffer: photoBytes })
      await form.send()
      await expect(page.getByText(FORMS_TEXT.queued)).toBeVisible()
      await expect(form.queue).toHaveText(FORMS_TEXT.waiting(1))
      await expect(page.getByTestId('form-uploads')).toContainText('window.png')
      await page.screenshot({ path: test.info().outputPath(`queued-${name}.png`), fullPage: true })
      // The toolbar counts it with the folder and the upload it waits for; the Sync panel lists it.
      await expect(page.getByTestId('sync-pending-count')).toHaveText('3')
      await new SyncPanel(page).open()
      const section = page.getByTestId('sync-forms')
      await expect(section.getByRole('heading')).toHaveText(`${FORMS_SYNC_TEXT.title} (1)`)
      await expect(section).toContainText(id)
      await expect(section).toContainText(FORM_FILES_TEXT.waitsForFiles)
      await page.keyboard.press('Escape')
      await expect(section).toBeHidden()

      // Still offline: the page reloads from the service worker; the answers and the photo are kept.
      await page.reload()
      await expect(page.getByRole('heading', { name: 'Damage photos' })).toBeVisible()
      await expect(form.queue).toHaveText(FORMS_TEXT.waiting(1))
      await expect(page.getByTestId('form-uploads')).toContainText('window.png')
      expect((await server.api<Doc[]>(`/api/data/${id}`, { token: admin })).body ?? []).toHaveLength(0)

      await setNetwork(context, link, 'online')
      await expect(form.queue).toHaveCount(0, { timeout: 60_000 })
      const docs = (await server.api<Doc[]>(`/api/data/${id}`, { token: admin })).body ?? []
      expect(docs).toHaveLength(1)
      const doc = docs[0]!
      const path = `forms/${id}/${doc._id}/photo-window.png`
      expect(doc).toMatchObject({ note: 'Broken window', photo: path })
      const file = await fetch(`${server.url}/api/storage/${path}`, {
        headers: { authorization: `Bearer ${admin}` },
      })
      expect(file.status).toBe(200)
      expect(Buffer.from(await file.arrayBuffer()).equals(photoBytes)).toBe(true)

      // Exactly once: one write of the file in the change log, one file in the folder, one document,
      // also after another reload and the queues' next passes.
      await page.reload()
      await expect(page.getByRole('heading', { name: 'Damage photos' })).toBeVisible()
      await page.waitForTimeout(3_000)
      const writes = await writesPerPath(server, admin)
      expect(Object.entries(writes).filter(([p]) => p.startsWith(`forms/${id}/`))).toEqual([
        [`forms/${id}/${doc._id}`, 1],
        [path, 1],
      ])
      expect((await server.api<Doc[]>(`/api/data/${id}`, { token: admin })).body).toHaveLength(1)
    } finally {
      await context.close()
    }
  })
}
