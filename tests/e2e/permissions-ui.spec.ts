/**
 * Issue 11 "The UI does not know what you may do", in real Chromium against the real server. A read-only
 * viewer (data:r, as the sample Viewers group) meets no Save, and Delete, Import and New document
 * disabled with the reason; Ctrl/Cmd+S, Delete and Ctrl/Cmd+A + Delete do nothing; nothing reaches the
 * outbox and the server's documents stay as they were. A user with no group gets the Database screen's
 * "You cannot open …: it requires …" instead of "No collections yet".
 */

import type { Page } from '@playwright/test'
import { AUTH_SCREENS_TEXT, cannotDo, PERMISSION_UI_TEXT, SCREENS_TEXT } from '../../src/shared/texts'
import { type E2EServer, expect, openLoggedIn, test } from './fixtures'
import { DatabasePage } from './pages/database'
import { ReadOnlyView } from './pages/read-only'
import { engineReady } from './pages/sync-panel'

const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`
/** Unrelated to any name, so the password policy takes it. */
const PASSWORD = 'lantern orbit quartz meadow 93'

/** A user in one group with these permissions (none: no group at all); returns a session token. */
async function userWith(server: E2EServer, id: string, permissions: string[] | null): Promise<string> {
  const admin = await server.login()
  if (permissions) {
    const group = await server.api('/api/groups', {
      token: admin,
      json: { _id: `g-${id}`, name: id, permissions },
    })
    expect(group.status).toBe(201)
  }
  const user = await server.api('/api/users', {
    token: admin,
    json: {
      _id: id,
      name: id,
      email: `${id}@example.com`,
      password: PASSWORD,
      groups: permissions ? [`g-${id}`] : [],
    },
  })
  expect(user.status).toBe(201)
  return server.login(id, PASSWORD)
}

// Each test starts a browser session on a machine shared with other suites: give them room.
test.slow()

/** A collection of two documents and a viewer (data:r, as the sample Viewers group) looking at it. */
async function viewerOn(page: Page, server: E2EServer) {
  const name = `notes${unique()}`
  const collection = `data/${name}`
  const admin = await server.login()
  for (const id of ['n1', 'n2']) {
    const res = await server.api(`/api/${collection}`, {
      token: admin,
      json: { _id: id, city: `City ${id}` },
    })
    expect(res.status).toBe(201)
  }
  await server.api('/api/logs/client', { token: admin, json: { level: 'INFO', log: 'Viewer can read this' } })
  const token = await userWith(server, `viewer-${unique()}`, ['data:r', 'logs/client:r', 'settings:r'])
  await openLoggedIn(page, server, token, `/data/${name}`)
  await engineReady(page)
  const db = new DatabasePage(page)
  await expect(db.rows).toHaveCount(2)
  /** The server never heard of a write: both documents as they were, at their first revision. */
  const expectServerUnchanged = async () => {
    const res = await server.api<Array<{ _id: string; _rev: number }>>(`/api/${collection}`, { token: admin })
    expect(res.body.map((d) => [d._id, d._rev])).toEqual([
      ['n1', 1],
      ['n2', 1],
    ])
  }
  return { name, collection, db, view: new ReadOnlyView(page), expectServerUnchanged }
}

test('a read-only viewer: no New document, Import or Delete in the collection, by button or key', async ({
  page,
  server,
}) => {
  const { name, collection, db, view, expectServerUnchanged } = await viewerOn(page, server)

  // New document and Import stay, disabled, with the reason; a note says what is missing.
  const createReason = cannotDo('create', `documents in ${collection}`, `${collection}:c`)
  await view.expectDenied(view.button('New document'), createReason)
  await view.expectDenied(view.button('Import'), createReason)
  await expect(view.note).toHaveText(
    PERMISSION_UI_TEXT.readOnly(`${collection}:c`, 'add or import documents'),
  )
  await view.button('New document').click({ force: true })
  await expect(page).toHaveURL(new RegExp(`/data/${name}$`))

  // Selecting is reading; deleting the selection is not offered, by button or by key.
  await db.row('n1').getByRole('checkbox').check()
  await view.expectDenied(
    view.button('Delete 1'),
    cannotDo('delete', `${collection}/n1`, `${collection}/n1:d`),
  )
  await page.keyboard.press('Delete')
  await page.keyboard.press('ControlOrMeta+a')
  await expect(view.button('Delete 2')).toBeDisabled()
  await page.keyboard.press('Delete')
  await expect(view.dialog).toBeHidden()
  await expect(db.rows).toHaveCount(2)
  await view.expectNothingQueued(collection)
  await expectServerUnchanged()
})

test('a read-only viewer: no Save, Delete disabled, a read-only form, Ctrl/Cmd+S does nothing', async ({
  page,
  server,
}) => {
  const { collection, db, view, expectServerUnchanged } = await viewerOn(page, server)
  await db.row('n1').getByRole('link', { name: 'n1', exact: true }).click()
  await expect(db.heading).toHaveText('n1')
  await expect(view.note).toHaveText(PERMISSION_UI_TEXT.readOnly(`${collection}/n1:u`, 'edit this document'))
  await expect(view.toolbarSave).toHaveCount(0)
  await view.expectDenied(view.button('Delete'), cannotDo('delete', `${collection}/n1`, `${collection}/n1:d`))
  await expect(page.locator('.tab-panel input').first()).toBeDisabled()
  await page.keyboard.press('ControlOrMeta+s')
  await page.keyboard.press('Delete')
  await expect(view.dialog).toBeHidden()
  await page.getByRole('tab', { name: 'JSON' }).click()
  const json = page.getByRole('textbox', { name: 'Document JSON' })
  await expect(json).toHaveAttribute('readonly', '')
  await json.press('ControlOrMeta+s')
  await expect(page.locator('.mc-toast', { hasText: 'saved' })).toHaveCount(0)
  await view.expectNothingQueued(collection)
  await expectServerUnchanged()
})

test('a read-only viewer: Settings and Clear logs are not offered', async ({ page, server }) => {
  const { collection, view } = await viewerOn(page, server)
  await page.goto(`${server.ui}/settings`)
  await expect(page.locator('#page-heading')).toHaveText('Settings')
  await expect(view.note).toHaveText(PERMISSION_UI_TEXT.readOnly('settings:u', 'change settings'))
  await expect(view.toolbarSave).toHaveCount(0)
  await expect(page.getByLabel('Title', { exact: true })).toBeDisabled()

  await page.goto(`${server.ui}/logs/client`)
  await expect(page.locator('tbody.vt-body tr.vt-row').first()).toBeVisible()
  await view.expectDenied(
    view.button('Clear'),
    cannotDo('delete', 'documents in logs/client', 'logs/client:d'),
  )
  await view.expectNothingQueued(collection)
})

test('a reader meets a Read-only note on a user, a group and a template', async ({ page, server }) => {
  const template = `note${unique()}`
  const admin = await server.login()
  const created = await server.api('/api/templates', {
    token: admin,
    json: { _id: template, kind: 'email', subject: 'Hi', text: 'Hello' },
  })
  expect(created.status).toBe(201)
  const token = await userWith(server, `auditor-${unique()}`, ['users:r', 'groups:r', 'templates:r'])
  await openLoggedIn(page, server, token, '/users/admin')
  await engineReady(page)
  const view = new ReadOnlyView(page)
  await expect(page.getByLabel('Name', { exact: true })).toBeDisabled()
  await expect(view.note).toHaveText(PERMISSION_UI_TEXT.readOnly('users/admin:u', 'edit this user'))
  await page.goto(`${server.ui}/groups/admins`)
  await expect(page.getByLabel('Name', { exact: true })).toBeDisabled()
  await expect(view.note).toHaveText(PERMISSION_UI_TEXT.readOnly('groups/admins:u', 'edit this group'))
  await expect(view.toolbarSave).toHaveCount(0)
  await page.goto(`${server.ui}/templates/${template}`)
  await expect(view.note).toHaveText(
    PERMISSION_UI_TEXT.readOnly(`templates/${template}:u`, 'edit this template'),
  )
  await expect(view.toolbarSave).toHaveCount(0)
})

test('a user with no group is told why the Database is empty', async ({ page, server }) => {
  const token = await userWith(server, `nogroup-${unique()}`, null)
  await openLoggedIn(page, server, token, '/data')
  await expect(page.locator('#page-heading')).toHaveText('Database')
  await expect(page.getByRole('alert')).toHaveText(AUTH_SCREENS_TEXT.noAccess('Database', 'data:r'))
  await expect(page.getByText(SCREENS_TEXT.noCollections)).toHaveCount(0)
  await expect(page.getByLabel('New collection')).toHaveCount(0)
})
