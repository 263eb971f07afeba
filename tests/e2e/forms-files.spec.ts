/**
 * File and photo fields of forms (issue 17, docs/operating/forms.md "File and photo fields") at 375 px: added
 * and configured with the keyboard alone, refused on an anyone-with-the-link form with the reason;
 * filled online, the photo is uploaded first and the submission names its path; a filler without the
 * storage right is told why at once and nothing is queued.
 */
import { FORM_FILES_TEXT } from '../../src/shared/texts'
import { expect, openLoggedIn, passwordOf, test } from './fixtures'
import { FillPage, FormEditorPage, FormsPage } from './pages/forms'
import { PHONE } from './widths'

type Doc = Record<string, unknown>

test.use({ viewport: PHONE })

const photo = Buffer.from(Array.from({ length: 40_000 }, (_, i) => (i * 13) % 256))

test('a file field is added by keyboard and refused on a link form', async ({ page, server }) => {
  const admin = await server.login()
  await openLoggedIn(page, server, admin, '/forms')
  const id = 'photo-editor'
  await new FormsPage(page).create(id, 'Photos', `data/${id}`)
  const editor = new FormEditorPage(page)
  await editor.addField({ type: 'File or photo', label: 'Photo', name: 'photo', required: true })
  // Photos by default; the camera and the size are one Tab away.
  await expect(page.getByLabel('Accepted files')).toHaveValue('image/*')
  await page.getByRole('checkbox', { name: 'On phones, open the camera' }).focus()
  await page.keyboard.press('Space')
  await page.getByLabel('Largest file (MB)').focus()
  await page.keyboard.type('5')
  await editor.anyoneWithTheLink()
  await expect(page.getByRole('alert').filter({ hasText: FORM_FILES_TEXT.linkForm })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Save' })).toBeDisabled()
  // Back to the group: saved with the field as configured.
  const group = page.getByRole('radio', { name: 'Members of a group' })
  await group.focus()
  await page.keyboard.press('Space')
  await expect(page.getByRole('alert').filter({ hasText: FORM_FILES_TEXT.linkForm })).toHaveCount(0)
  await editor.save()
  await expect
    .poll(
      async () => ((await server.api<Doc>(`/api/forms/${id}`, { token: admin })).body?.fields as Doc[])?.[1],
    )
    .toMatchObject({
      name: 'photo',
      type: 'file',
      accept: 'image/*',
      capture: true,
      maxMB: 5,
      required: true,
    })
})

test('online, the photo is uploaded first and the submission names it; without the right, the filler is told', async ({
  page,
  server,
}) => {
  const admin = await server.login()
  const id = 'photo-online'
  const allowed = 'photo-filler'
  const denied = 'photo-nobody'
  await server.createUser(allowed, [`storage/forms/${id}:c`])
  await server.createUser(denied, [])
  // The form's group gives no right; the storage right is the first filler's own group's.
  const fillers = await server.api('/api/groups', {
    token: admin,
    json: { _id: 'meter-fillers', name: 'Meter', permissions: [] },
  })
  expect(fillers.status).toBe(201)
  for (const u of [allowed, denied]) {
    const joined = await server.api(`/api/users/${u}`, {
      method: 'PATCH',
      token: admin,
      json: { groups: [`g-${u}`, 'meter-fillers'] },
    })
    expect(joined.status).toBe(200)
  }
  const created = await server.api('/api/forms', {
    token: admin,
    json: {
      _id: id,
      title: 'Meter reading',
      target: `data/${id}`,
      fill: 'group',
      group: 'meter-fillers',
      fields: [{ name: 'meter', label: 'Meter photo', type: 'file', accept: 'image/*', required: true }],
    },
  })
  expect(created.status).toBe(201)

  const token = await server.login(allowed, passwordOf(allowed))
  await openLoggedIn(page, server, token, `/forms/${id}`)
  const form = new FillPage(page)
  await form.field('Meter photo').setInputFiles({ name: 'meter.jpg', mimeType: 'image/jpeg', buffer: photo })
  await form.send()
  await expect(page.getByText('Thank you, your answers were sent.')).toBeVisible({ timeout: 30_000 })
  const docs = (await server.api<Doc[]>(`/api/data/${id}`, { token: admin })).body ?? []
  expect(docs).toHaveLength(1)
  const path = `forms/${id}/${docs[0]!._id}/meter-meter.jpg`
  expect(docs[0]).toMatchObject({ meter: path })
  const file = await fetch(`${server.url}/api/storage/${path}`, {
    headers: { authorization: `Bearer ${admin}` },
  })
  expect(Buffer.from(await file.arrayBuffer()).equals(photo)).toBe(true)

  const other = await server.login(denied, passwordOf(denied))
  await openLoggedIn(page, server, other, `/forms/${id}`)
  await form.field('Meter photo').setInputFiles({ name: 'meter.jpg', mimeType: 'image/jpeg', buffer: photo })
  await form.send()
  await expect(page.getByRole('alert').filter({ hasText: /storage\/forms/ })).toBeVisible({ timeout: 30_000 })
  await expect(form.queue).toHaveCount(0)
  expect((await server.api<Doc[]>(`/api/data/${id}`, { token: admin })).body).toHaveLength(1)
})
