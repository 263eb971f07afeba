/**
 * A collection's schema editor (issue 36, finding 3), at 1280 and 375 px: inferred from the mirrored
 * documents, edited, with the documents it would not accept listed (the server's messages) before
 * saving, and saved — online ("accepted" only once the server has it), offline through the outbox
 * (neutral "saved on this device" on the same row, turning to accepted on reconnect, over a real cut),
 * and read-only for a user who may read the schema but not write it. The seeded sample form's
 * collection opens on its schema.
 */
import fs from 'node:fs'
import type { Page } from '@playwright/test'
import { PERMISSION_UI_TEXT, SCHEMA_EDITOR_TEXT as T } from '../../src/shared/texts'
import { passwordOf } from './fixtures'
import { DatabasePage } from './pages/database'
import { SchemaEditorPage } from './pages/schema-editor'
import { engineReady, freshCollection } from './pages/sync-panel'
import { expect, openLoggedIn, setNetwork, test } from './proxied'
import { WIDTHS } from './widths'

// The sample data set (its form's collection has a schema); every other test uses a fresh collection.
test.use({ seed: 'sample' })

const SHOTS = '/tmp/shots'

async function shot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SHOTS, { recursive: true })
  await new DatabasePage(page).closeToasts()
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true })
}

const CREW = [
  { _id: 'ada', name: 'Ada', age: 36 },
  { _id: 'ben', name: 'Ben', age: 130 },
  { _id: 'c', name: 'C', age: 41 },
]

for (const { name: width, viewport } of WIDTHS) {
  test.describe(`the schema editor at ${width}`, () => {
    test.use({ viewport })

    test('infer, edit, see the documents it would refuse, save: accepted by the server', async ({
      page,
      server,
    }) => {
      test.setTimeout(120_000)
      const token = await server.login()
      const { name, collection } = freshCollection(`crew-${width}`)
      for (const doc of CREW)
        expect((await server.api(`/api/${collection}`, { token, json: doc })).status).toBe(201)
      await openLoggedIn(page, server, token, `/data/${name}`)
      await engineReady(page)
      await expect(new DatabasePage(page).rows).toHaveCount(3, { timeout: 30_000 })
      await shot(page, `collection-with-schema-link-${width === 'desktop' ? 1280 : 375}`)
      await page.getByRole('link', { name: T.tab }).click()
      await expect(page).toHaveURL(new RegExp(`/data/${name}/~schema$`))
      const editor = new SchemaEditorPage(page)
      await expect(page.getByText(T.none)).toBeVisible()

      await editor.infer.click()
      await expect(page.getByText(T.inferred(2, 3))).toBeVisible()
      await expect(editor.part('age', T.type)).toHaveValue('integer')
      await expect(editor.part('name', T.required)).toBeChecked()
      await expect(page.getByText(T.allConform(3))).toBeVisible()

      // Rules that some documents break: they are listed with the server's messages, before saving.
      await editor.part('age', /^Max/).fill('120')
      await editor.part('name', /^Min/).fill('2')
      await expect(editor.violations).toContainText(T.violating(2, 3))
      await expect(editor.violations.getByRole('listitem').filter({ hasText: 'ben' })).toContainText(
        'age: Must be at most 120',
      )
      await expect(editor.violations.getByRole('listitem').filter({ hasText: /^c/ })).toContainText(
        'name: Must be at least 2 characters',
      )
      // Every field's problem at once, before anything is sent.
      await editor.addField.click()
      await editor.field(T.newField).getByLabel(T.name).fill('_secret')
      await editor.part('age', /^Min/).fill('200')
      await editor.save()
      await expect(editor.field('_secret')).toContainText(T.nameSystem)
      await expect(editor.field('age')).toContainText(T.minAboveMax)
      expect((await server.api(`/api/schemas/data.${name}`, { token })).status).toBe(404)

      await editor.part('age', /^Min/).fill('0')
      await editor.field('_secret').getByLabel(T.name).fill('email')
      await editor.part('email', T.format).selectOption('email')
      if (width === 'desktop') await shot(page, 'schema-editor-1280')
      else await shot(page, 'schema-editor-375')
      await editor.save(true)
      await expect(editor.outcome).toHaveText(T.accepted, { timeout: 30_000 })
      const saved = await server.api<{ schema: { properties: Record<string, unknown>; required: string[] } }>(
        `/api/schemas/data.${name}`,
        { token },
      )
      expect(saved.body.schema.properties).toMatchObject({
        name: { type: 'string', minLength: 2 },
        age: { type: 'integer', minimum: 0, maximum: 120 },
        email: { type: 'string', format: 'email' },
      })
      expect(saved.body.schema.required).toEqual(['name', 'age'])
      // The server holds the next write to it, with the same message.
      const refused = await server.api(`/api/${collection}`, {
        token,
        json: { _id: 'd', name: 'Dee', age: 121 },
      })
      expect(refused.status).toBe(400)
    })

    test('offline, a save is queued on this device, not "saved", and accepted on reconnect', async ({
      page,
      context,
      server,
      link,
      through,
    }) => {
      test.setTimeout(120_000)
      const token = await server.login()
      const { name, collection } = freshCollection(`queue-${width}`)
      expect(
        (await server.api(`/api/${collection}`, { token, json: { _id: 'one', site: 'Depot' } })).status,
      ).toBe(201)
      await openLoggedIn(page, through, token, `/data/${name}/~schema`)
      await engineReady(page)
      const editor = new SchemaEditorPage(page)
      await expect(page.getByText(T.allConform(1))).toBeVisible({ timeout: 30_000 })

      await setNetwork(context, link, 'offline')
      await editor.infer.click()
      await expect(editor.part('site', T.type)).toHaveValue('string')
      await editor.save()
      await expect(editor.outcome).toHaveText(T.queuedOffline)
      await expect(editor.outcome).not.toContainText(T.accepted)
      await expect(page.locator('.mc-toast[data-kind="success"]')).toHaveCount(0)
      if (width === 'phone') await shot(page, 'schema-editor-queued-375')
      // The form keeps its content, and the server has nothing yet.
      await expect(editor.part('site', T.name)).toHaveValue('site')
      expect((await server.api(`/api/schemas/data.${name}`, { token })).status).toBe(404)

      await setNetwork(context, link, 'online')
      await expect(editor.outcome).toHaveText(T.accepted, { timeout: 30_000 })
      const saved = await server.api<{ schema: Record<string, unknown> }>(`/api/schemas/data.${name}`, {
        token,
      })
      expect(saved.body.schema).toMatchObject({
        properties: { site: { type: 'string' } },
        required: ['site'],
      })
    })

    test('a user who may read the schema but not write it sees it read-only, and why', async ({
      page,
      server,
    }) => {
      const token = await server.login()
      const { name, collection } = freshCollection(`ro-${width}`)
      const schemaId = `data.${name}`
      expect(
        (await server.api(`/api/${collection}`, { token, json: { _id: 'x', site: 'Depot' } })).status,
      ).toBe(201)
      const schema = {
        type: 'object',
        required: ['site'],
        properties: { site: { type: 'string', maxLength: 40 } },
      }
      expect((await server.api('/api/schemas', { token, json: { _id: schemaId, schema } })).status).toBe(201)
      const reader = `reader-${name}`
      await server.createUser(reader, [`${collection}:r`, `schemas/${schemaId}:r`])
      await openLoggedIn(
        page,
        server,
        await server.login(reader, passwordOf(reader)),
        `/data/${name}/~schema`,
      )
      await engineReady(page)
      const editor = new SchemaEditorPage(page)
      await expect(page.getByTestId('readonly-note')).toHaveText(
        PERMISSION_UI_TEXT.readOnly(`schemas/${schemaId}:u`, T.readOnlyAction),
        { timeout: 30_000 },
      )
      await expect(editor.part('site', T.name)).toBeDisabled()
      await expect(editor.part('site', /^Max/)).toHaveValue('40')
      await expect(editor.infer).toHaveCount(0)
      await expect(editor.addField).toHaveCount(0)
      await expect(editor.toolbarSave).toHaveCount(0)

      // Without the right to read it, the screen says which permission it needs.
      const stranger = `stranger-${name}`
      await server.createUser(stranger, [`${collection}:r`])
      await openLoggedIn(
        page,
        server,
        await server.login(stranger, passwordOf(stranger)),
        `/data/${name}/~schema`,
      )
      await expect(page.getByRole('alert')).toHaveText(
        `You cannot open ${T.title(name)}: it requires the permission schemas/${schemaId}:r.`,
      )
    })
  })
}

test.describe('the sample data set', () => {
  for (const { name: width, viewport } of WIDTHS) {
    test(`opens the sample form's collection on its schema at ${width}`, async ({ page, server }) => {
      await page.setViewportSize(viewport)
      const token = await server.login()
      await openLoggedIn(page, server, token, '/data')
      await new DatabasePage(page).collection('inspections').click({ timeout: 30_000 })
      await page.getByRole('link', { name: T.tab }).click()
      const editor = new SchemaEditorPage(page)
      await expect(editor.part('score', /^Max/)).toHaveValue('5', { timeout: 30_000 })
      await expect(editor.part('site', T.required)).toBeChecked()
      await expect(editor.part('inspector', T.format)).toHaveValue('email')
      await expect(page.getByRole('checkbox', { name: T.strict })).toBeChecked()
      await expect(page.getByText(T.kept(['allOf']))).toBeVisible()
      await shot(page, `schema-editor-seeded-${width === 'desktop' ? 1280 : 375}`)
    })
  }
})
