/**
 * A collection schema in the Database document form (issue 17), desktop and 375 px: with the server
 * cut off (the socket proxy, a real cut), the form offers the schema's fields, shows the server's own
 * per-field messages (SPEC's e-mail message among them) before saving, and saves nothing while they
 * stand; once fixed, the document is saved offline and reaches the server on reconnect.
 */
import type { Page } from '@playwright/test'
import { DatabasePage } from './pages/database'
import { engineReady } from './pages/sync-panel'
import { expect, openLoggedIn, test } from './proxied'
import { WIDTHS } from './widths'

/** A field's editor in the document form (its label also holds the required mark). */
const field = (page: Page, name: string) => page.getByRole('textbox', { name, exact: true })

const SCHEMA = {
  type: 'object',
  required: ['name', 'email'],
  properties: {
    name: { type: 'string', minLength: 2 },
    email: { type: 'string', format: 'email' },
    age: { type: 'integer', maximum: 120 },
    role: { enum: ['lead', 'member'] },
  },
}

for (const { name, viewport } of WIDTHS) {
  test.describe(`schemas at ${name}`, () => {
    test.use({ viewport })

    test('the document form shows the schema messages offline and saves only a conforming document', async ({
      page,
      server,
      link,
      through,
    }) => {
      test.setTimeout(120_000)
      const token = await server.login()
      const collection = `crew-${name}`
      const saved = await server.api('/api/schemas', {
        token,
        json: { _id: `data.${collection}`, schema: SCHEMA },
      })
      expect(saved.status).toBe(201)
      await openLoggedIn(page, through, token, `/data/${collection}/new`)
      await engineReady(page)
      // The schema reached the mirror: its fields are offered.
      await expect(page.getByRole('button', { name: 'Set email' })).toBeVisible({ timeout: 30_000 })

      link.offline = true
      link.killEngineSockets()
      const db = new DatabasePage(page)
      await page.getByRole('button', { name: 'Set email' }).click()
      await field(page, 'email').fill('ada@example')
      await page.getByRole('button', { name: 'Set age' }).click()
      await field(page, 'age').fill('130')
      await page.keyboard.press('ControlOrMeta+s') // the toolbar's Save; its shortcut at every width

      await expect(page.getByText('Invalid e-mail address', { exact: true })).toBeVisible()
      await expect(page.getByText('Must be at most 120', { exact: true })).toBeVisible()
      await expect(page.getByText('Required', { exact: true })).toBeVisible() // name
      await expect(db.toasts.filter({ hasText: "does not match its collection's schema" })).toBeVisible()
      await expect(page).toHaveURL(/\/new$/)

      await page.getByRole('button', { name: 'Set name' }).click()
      await field(page, 'name').fill('Ada')
      await field(page, 'email').fill('ada@example.org')
      await field(page, 'age').fill('36')
      await page
        .getByLabel('role', { exact: true })
        .waitFor({ state: 'detached' })
        .catch(() => undefined)
      await expect(page.getByText('Invalid e-mail address', { exact: true })).toHaveCount(0)
      await page.keyboard.press('ControlOrMeta+s') // the toolbar's Save; its shortcut at every width
      await expect(page).not.toHaveURL(/\/new$/, { timeout: 20_000 })
      const id = decodeURIComponent(page.url().split('/').pop() ?? '')

      link.offline = false
      await expect
        .poll(async () => (await server.api(`/api/data/${collection}/${id}`, { token })).body, {
          timeout: 30_000,
        })
        .toMatchObject({ name: 'Ada', email: 'ada@example.org', age: 36 })
    })
  })
}
