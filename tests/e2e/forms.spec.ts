/**
 * Forms (issue 17) in Chromium against the real server, at desktop and 375 px: a form with six field
 * types, a section and a conditional field built with the keyboard alone (add, configure, reorder,
 * save), previewed at phone width and as JSON; then filled logged out through its link, where the
 * conditional field shows only when its condition holds and the answers land in the target collection.
 */
import type { Page } from '@playwright/test'
import { expect, openLoggedIn, test } from './fixtures'
import { FillPage, FormEditorPage, FormsPage, fieldIn } from './pages/forms'
import { WIDTHS } from './widths'

type Doc = Record<string, unknown>

async function buildInspection(page: Page, id: string) {
  await new FormsPage(page).create(id, 'Site inspection', `data/${id}`)
  const editor = new FormEditorPage(page)
  await editor.addField({ type: 'Short text', label: 'Site', name: 'site', required: true })
  await editor.addField({ type: 'Number', label: 'Workers on site', name: 'workers' })
  await editor.addField({ type: 'Date', label: 'Visit date', name: 'visited' })
  await editor.addField({
    type: 'Single choice',
    label: 'Weather',
    name: 'weather',
    options: ['Sun', 'Rain', 'Snow'],
  })
  await editor.addField({ type: 'Section heading', label: 'Damage' })
  await editor.addField({ type: 'Yes / no', label: 'Any damage?', name: 'damage' })
  await editor.addField({
    type: 'Long text',
    label: 'Describe the damage',
    name: 'details',
    required: true,
    showIf: { field: 'Any damage?', value: 'Yes' },
  })
  // The starter's "Name" field goes last, and then away; "Site" moves to the top by keyboard.
  await editor.moveUp('Site')
  await expect(editor.fields.getByRole('listitem').first()).toContainText('Site')
  await page.getByRole('button', { name: 'Remove Name' }).focus()
  await page.keyboard.press('Enter')
  await editor.anyoneWithTheLink()
  await editor.save()
  return editor
}

for (const { name, viewport } of WIDTHS) {
  test.describe(`forms at ${name} width`, () => {
    test.use({ viewport })

    test('a form is built by keyboard only, previewed, and filled logged out through its link', async ({
      page,
      browser,
      server,
    }) => {
      test.setTimeout(150_000)
      const admin = await server.login()
      await openLoggedIn(page, server, admin, '/forms')
      const id = `inspection-${name}`
      const editor = await buildInspection(page, id)

      // Saved through the outbox: the server has the whole form.
      await expect
        .poll(async () => ((await server.api<Doc>(`/api/forms/${id}`, { token: admin })).body as Doc).fill, {
          timeout: 20_000,
        })
        .toBe('link')
      const saved = (await server.api<Doc>(`/api/forms/${id}`, { token: admin })).body
      const fields = saved.fields as { name: string; type: string; showIf?: unknown }[]
      expect(fields.map((f) => f.type)).toEqual([
        'text',
        'number',
        'date',
        'choice',
        'section',
        'yesno',
        'textarea',
      ])
      expect(fields.find((f) => f.name === 'details')?.showIf).toEqual({ field: 'damage', equals: true })

      // The preview: a phone-wide frame with labelled inputs; the conditional field appears on "Yes".
      await editor.preview('Phone').focus()
      await page.keyboard.press('Enter')
      const phone = page.getByTestId('preview-phone')
      await expect(fieldIn(phone, 'Site')).toBeVisible()
      expect((await phone.boundingBox())?.width).toBeLessThanOrEqual(375)
      await expect(fieldIn(phone, 'Describe the damage')).toHaveCount(0)
      await phone.getByRole('radio', { name: 'Yes' }).focus()
      await page.keyboard.press('Space')
      await expect(fieldIn(phone, 'Describe the damage')).toBeVisible()
      await page.screenshot({ path: test.info().outputPath(`editor-${name}.png`), fullPage: true })
      // Nothing is wider than the window (no sideways scrolling at 375 px).
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        viewport.width,
      )
      await editor.preview('JSON').focus()
      await page.keyboard.press('Enter')
      await expect(page.getByLabel('JSON Schema (derived)')).toHaveValue(/"if"/)

      // Logged out, through the link.
      const visitor = await browser.newContext({ viewport })
      const fill = await visitor.newPage()
      await fill.goto(`${server.ui}/forms/${id}`)
      const filler = new FillPage(fill)
      await expect(fill.getByRole('heading', { name: 'Site inspection' })).toBeVisible()
      await expect(fill.getByRole('navigation', { name: /sidebar|main/i })).toHaveCount(0)
      // Required fields are checked before sending, with the server's words.
      await filler.send()
      await expect(fill.getByText('Required').first()).toBeVisible()
      await filler.field('Site').fill('North depot')
      await filler.field('Workers on site').fill('4')
      await filler.field('Visit date').fill('2026-11-20')
      await fill.getByRole('radio', { name: 'Rain' }).check()
      await expect(fieldIn(fill, 'Describe the damage')).toHaveCount(0)
      await fill.getByRole('group', { name: 'Any damage?' }).getByRole('radio', { name: 'Yes' }).check()
      await filler.field('Describe the damage').fill('Broken fence')
      await fill.screenshot({ path: test.info().outputPath(`fill-${name}.png`), fullPage: true })
      await filler.send()
      await expect(fill.getByRole('status').filter({ hasText: 'Thank you' })).toBeVisible()

      const stored = await server.api<Doc[]>(`/api/data/${id}`, { token: admin })
      expect(stored.body).toHaveLength(1)
      expect(stored.body[0]).toMatchObject({
        site: 'North depot',
        workers: 4,
        visited: '2026-11-20',
        weather: 'Rain',
        damage: true,
        details: 'Broken fence',
        _form: id,
        _updatedBy: null,
      })
      // The visitor cannot read the collection or the form document.
      expect((await fill.request.get(`${server.url}/api/data/${id}`)).status()).toBe(401)
      expect((await fill.request.get(`${server.url}/api/forms/${id}`)).status()).toBe(401)
      await visitor.close()
    })
  })
}
