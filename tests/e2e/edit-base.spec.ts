/**
 * Saving an edit made against an older version, through the real Database editor (docs/decisions/
 * edit-base.md): the reviewer's repro — someone else changes a field while the user edits another one
 * — must end with both changes on the server and nothing in the inbox; a change to the same field is a
 * conflict in the Sync panel; a document deleted elsewhere mid-edit can be re-created with the user's
 * values or discarded, after which leaving asks nothing. Real server, real Chromium and IndexedDB.
 */
import { EDIT_BASE_TEXT, SCREENS_TEXT, UI_TEXT } from '../../src/shared/texts'
import { expect, openLoggedIn, test } from './fixtures'
import { DatabasePage } from './pages/database'
import { engineReady, expectConverged, freshCollection, localState, SyncPanel } from './pages/sync-panel'

type Doc = Record<string, unknown>

async function openDoc(
  page: import('@playwright/test').Page,
  server: import('./fixtures').E2EServer,
  body: Doc,
) {
  const token = await server.login()
  const { name, collection } = freshCollection('edit-base')
  expect((await server.api(`/api/${collection}`, { token, json: { _id: 'pen', ...body } })).status).toBe(201)
  await openLoggedIn(page, server, token, `/data/${name}/pen`)
  await engineReady(page)
  const db = new DatabasePage(page)
  await expect(db.heading).toHaveText('pen')
  await page.getByRole('tab', { name: 'JSON' }).click()
  const editor = page.getByLabel('Document JSON')
  await expect(editor).toHaveValue(new RegExp(`"name": "${String(body.name)}"`))
  const doc = async () => (await server.api<Doc>(`/api/${collection}/pen`, { token })).body
  const otherWriter = async (method: 'PATCH' | 'DELETE', json?: Doc) => {
    const res = await server.api(`/api/${collection}/pen`, { method, token, json })
    expect(res.status).toBeLessThan(300)
  }
  return { token, name, collection, db, editor, doc, otherWriter }
}

test("the reviewer's repro: a concurrent change to another field is kept, not reverted", async ({
  page,
  server,
}) => {
  const { token, collection, db, editor, doc, otherWriter } = await openDoc(page, server, { name: 'Pen' })
  await editor.fill('{"name": "Pen", "price": 2}')
  await otherWriter('PATCH', { name: 'Fountain pen' })
  // The live change reached this page's mirror while the form holds the user's edit.
  await expect(page.getByText(EDIT_BASE_TEXT.changedElsewhere)).toBeVisible()
  await expect(editor).toHaveValue(/"price": 2/)
  await db.saveButton.click()
  await expect(db.toasts.filter({ hasText: 'Document pen was saved successfully' })).toBeVisible()
  await expect.poll(doc).toMatchObject({ name: 'Fountain pen', price: 2, _rev: 3 })
  await expectConverged(page, server, token, collection)
  expect((await localState(page, collection)).inbox).toBe(0)
  // The editor shows the merged document once saved.
  await expect(editor).toHaveValue(/"name": "Fountain pen"/)
})

test('a concurrent change to the same field becomes a conflict, never a silent overwrite', async ({
  page,
  server,
}) => {
  const { token, collection, db, editor, doc, otherWriter } = await openDoc(page, server, {
    name: 'Pen',
    price: 1,
  })
  await editor.fill('{"name": "Ballpoint", "price": 1}')
  await otherWriter('PATCH', { name: 'Fountain pen' })
  await expect(page.getByText(EDIT_BASE_TEXT.changedElsewhere)).toBeVisible()
  await db.saveButton.click()
  const sync = new SyncPanel(page)
  await expect.poll(async () => (await localState(page, collection)).inbox).toBe(1)
  expect(await doc()).toMatchObject({ name: 'Fountain pen', price: 1, _rev: 2 })
  await db.closeToasts() // the "saved" toast covers the toolbar
  await sync.open()
  await sync.review('pen')
  await expect(sync.cell('name', 'base')).toContainText('Pen')
  await expect(sync.cell('name', 'mine')).toContainText('Ballpoint')
  await expect(sync.cell('name', 'theirs')).toContainText('Fountain pen')
  await sync.choose('Keep mine')
  await expect.poll(doc).toMatchObject({ name: 'Ballpoint', price: 1, _rev: 3 })
  await expectConverged(page, server, token, collection)
})

test('deleted elsewhere while edited: re-create with my changes', async ({ page, server }) => {
  const { token, collection, editor, doc, otherWriter } = await openDoc(page, server, { name: 'Pen' })
  await editor.fill('{"name": "Pen", "price": 5}')
  await otherWriter('DELETE')
  await expect(page.getByText(EDIT_BASE_TEXT.goneWithEdits)).toBeVisible()
  await expect(page.getByLabel('Your changes')).toContainText('"price": 5')
  await page.getByRole('button', { name: EDIT_BASE_TEXT.recreate }).click()
  await expect.poll(doc).toMatchObject({ _id: 'pen', name: 'Pen', price: 5 })
  await expect(page.getByLabel('Document JSON')).toHaveValue(/"price": 5/)
  await expectConverged(page, server, token, collection)
})

test('deleted elsewhere while edited: discard lets the user leave without a question', async ({
  page,
  server,
}) => {
  const { name, db, editor, otherWriter } = await openDoc(page, server, { name: 'Pen' })
  await editor.fill('{"name": "Pen", "price": 5}')
  await otherWriter('DELETE')
  await expect(page.getByText(EDIT_BASE_TEXT.goneWithEdits)).toBeVisible()
  await page.getByRole('button', { name: EDIT_BASE_TEXT.discard }).click()
  await expect(page.getByText(SCREENS_TEXT.documentGone)).toBeVisible()
  await page.getByRole('link', { name: `Back to ${name}` }).click()
  await expect(db.heading).toHaveText(name)
  await expect(db.dialog.filter({ hasText: UI_TEXT.unsavedTitle })).toHaveCount(0)
})
