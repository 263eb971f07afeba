/**
 * The Templates console (issue 13) against the real server: an e-mail template with a variable and a
 * layout previewed in the sandboxed iframe (escaped), a syntax error with its line and column, "Send a
 * test to me" received by a real SMTP peer, a PDF template downloaded and read back with pdftotext,
 * a PDF saved to Storage and read back through the storage API,
 * duplicate and delete, and an offline edit that reaches the server once on reconnect.
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { type SmtpPeer, startSmtpPeer } from '../helpers/smtp'
import { type E2EServer, expect, openLoggedIn, passwordOf } from './fixtures'
import { engineReady, writesPerDoc } from './pages/sync-panel'
import { TemplateEditor, TemplatesPage } from './pages/templates'
import { test as proxiedBase, setNetwork } from './proxied'
import { WIDTHS } from './widths'

const test = proxiedBase.extend<object, { smtp: SmtpPeer }>({
  smtp: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads fixture dependencies from this pattern
    async ({}, use) => {
      const peer = await startSmtpPeer()
      await use(peer)
      await peer.close()
    },
    { scope: 'worker' },
  ],
  serverEnv: [async ({ smtp }, use) => use({ MOMENTUM_SMTP_URL: smtp.url }), { scope: 'worker' }],
})

const AUTHOR_PERMISSIONS = ['templates:*', 'messages:*', 'pdf:c']

/** Logs in as an author (with an e-mail address) on the templates list; created once per server. */
async function openAsAuthor(
  page: import('@playwright/test').Page,
  server: E2EServer,
  path = '/templates',
  through: E2EServer = server,
) {
  const admin = await server.login()
  if ((await server.api('/api/users/author', { token: admin })).status === 404)
    await server.createUser('author', AUTHOR_PERMISSIONS, 'Ann Author')
  const token = await server.login('author', passwordOf('author'))
  await openLoggedIn(page, through, token, path)
  await engineReady(page)
  return { admin, token }
}

async function layout(server: E2EServer, token: string, id: string) {
  const res = await server.api('/api/templates', {
    token,
    json: {
      _id: id,
      kind: 'layout',
      name: 'Base layout',
      content: '<main data-layout="base"><p>Brand header</p>{% block content %}{% endblock %}</main>',
    },
  })
  expect(res.status).toBeLessThan(300)
}

for (const { name, viewport } of WIDTHS) {
  test.describe(`templates at ${name} width`, () => {
    test.use({ viewport })

    test('an e-mail template with a variable and a layout previews escaped; a syntax error shows where', async ({
      page,
      server,
    }) => {
      test.setTimeout(120_000)
      const { token } = await openAsAuthor(page, server)
      await layout(server, token, `base-${name}`)
      const list = new TemplatesPage(page)
      const id = `welcome-${name}`
      await list.create('email', id, 'Welcome')
      const editor = new TemplateEditor(page)
      await editor.setCode('Subject', 'Welcome {{ user.name }}')
      await editor.setCode('HTML (optional)', '<h1>Hello {{ user.name }}</h1>')
      await editor.chooseLayout(`base-${name}`)
      await editor.setCode('Sample data (JSON)', '{"user": {"name": "<b>Ada</b>"}}')

      const frame = editor.preview()
      await expect(frame.locator('h1')).toHaveText('Hello <b>Ada</b>')
      await expect(frame.locator('h1 b')).toHaveCount(0)
      await expect(frame.getByText('Brand header')).toBeVisible()
      await expect(editor.previewFrame()).toHaveAttribute('sandbox', '')
      await expect(editor.previewRegion.locator('pre[data-part="subject"]')).toHaveText('Welcome <b>Ada</b>')

      await page.getByRole('button', { name: 'Phone' }).click()
      await expect(editor.previewFrame()).toHaveJSProperty('offsetWidth', 375)

      // Nothing but the preview's own scroller is wider than the screen.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        viewport.width,
      )

      // CodeMirror's generated theme applies under the console's CSP (style-src 'self').
      await expect(page.locator('.cm-editor').first()).toHaveCSS('display', 'flex')

      await editor.save(id)
      await expect
        .poll(
          async () =>
            ((await server.api(`/api/templates/${id}`, { token })).body as { sample?: unknown }).sample,
        )
        .toEqual({ user: { name: '<b>Ada</b>' } })
      await expect
        .poll(
          async () => ((await server.api(`/api/templates/${id}`, { token })).body as { html?: string }).html,
        )
        .toBe(`{% layout "base-${name}" %}{% block content %}<h1>Hello {{ user.name }}</h1>{% endblock %}`)

      await editor.setCode('Subject', 'Welcome\n{{ user.name ')
      await expect(page.getByText(/Syntax error in subject at line 2, column \d+/).first()).toBeVisible()
      await expect(editor.code('Subject')).toHaveAttribute('aria-invalid', 'true')
      await page.screenshot({ path: `test-results/screenshots/templates-editor-${name}.png`, fullPage: true })
    })
  })
}

test('"Send a test to me" delivers the rendered draft to the SMTP peer', async ({ page, server, smtp }) => {
  test.setTimeout(90_000)
  await openAsAuthor(page, server)
  const list = new TemplatesPage(page)
  await list.create('email', 'test-mail', 'Test mail')
  const editor = new TemplateEditor(page)
  await editor.setCode('Subject', 'Invoice for {{ name }}')
  await editor.setCode('HTML (optional)', '<p>Dear {{ name }}, total {{ total }}</p>')
  await editor.setCode('Sample data (JSON)', '{"name": "Grace & Co", "total": "12.50"}')
  await expect(editor.preview().locator('p')).toHaveText('Dear Grace & Co, total 12.50')
  await editor.button('Send a test to me').click()
  await expect(page.getByText('A test was sent to author@example.com')).toBeVisible()
  const mail = await smtp.waitForMail(
    (m) => m.to.includes('author@example.com') && m.decoded.includes('Invoice for Grace'),
    30_000,
  )
  expect(mail.decoded).toContain('Subject: Invoice for Grace & Co')
  expect(mail.decoded).toContain('Dear Grace &amp; Co, total 12.50')
})

test('a PDF template downloads a PDF whose text pdftotext reads back', async ({ page, server }) => {
  test.setTimeout(120_000)
  await openAsAuthor(page, server)
  const list = new TemplatesPage(page)
  await list.create('pdf', 'invoice-pdf', 'Invoice')
  const editor = new TemplateEditor(page)
  await editor.setCode('HTML', '<h1>Invoice for {{ customer }}</h1><p>Total {{ total }} EUR</p>')
  await editor.setCode('Sample data (JSON)', '{"customer": "Ada Lovelace", "total": "42.00"}')
  await expect(editor.preview().locator('h1')).toHaveText('Invoice for Ada Lovelace')
  await expect(editor.button('Download PDF')).toBeDisabled()
  await editor.save('invoice-pdf')
  await expect(editor.button('Download PDF')).toBeEnabled()
  const [download] = await Promise.all([page.waitForEvent('download'), editor.button('Download PDF').click()])
  expect(download.suggestedFilename()).toBe('invoice-pdf.pdf')
  const file = await download.path()
  const text = execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' })
  expect(text).toContain('Invoice for Ada Lovelace')
  expect(text).toContain('Total 42.00 EUR')
})

test('"Save to Storage" stores the rendered PDF under a stamped path, with a link to it', async ({
  page,
  server,
}) => {
  test.setTimeout(120_000)
  const admin = await server.login()
  await server.createUser('archivist', [...AUTHOR_PERMISSIONS, 'storage:*'], 'Archivist')
  const token = await server.login('archivist', passwordOf('archivist'))
  await openLoggedIn(page, server, token, '/templates')
  await engineReady(page)
  const list = new TemplatesPage(page)
  await list.create('pdf', 'receipt-pdf', 'Receipt')
  const editor = new TemplateEditor(page)
  await editor.setCode('HTML', '<h1>Receipt for {{ customer }}</h1>')
  await editor.setCode('Sample data (JSON)', '{"customer": "Grace Hopper"}')
  await editor.save('receipt-pdf')
  const pathField = page.getByLabel('Path in Storage')
  await expect(pathField).toHaveValue('pdf/receipt-pdf-{{TIMESTAMP}}.pdf')
  await page.getByRole('button', { name: 'Save to Storage' }).click()
  const toast = page
    .getByRole('status')
    .filter({ hasText: 'The PDF was saved to Storage as pdf/receipt-pdf-' })
  await expect(toast).toBeVisible({ timeout: 60_000 })

  // The folder was made and the stamped file is in it.
  const listed = await server.api<Array<{ path: string; contentType: string }>>('/api/storage/pdf', {
    token: admin,
  })
  expect(listed.status).toBe(200)
  const [entry] = listed.body.filter((e) =>
    /^pdf\/receipt-pdf-\d{4}-\d{2}-\d{2}_\d{2}-\d{2}\.pdf$/.test(e.path),
  )
  expect(entry?.contentType).toBe('application/pdf')
  const res = await fetch(`${server.url}/api/storage/${entry!.path}`, {
    headers: { authorization: `Bearer ${admin}` },
  })
  expect(res.status).toBe(200)
  const file = path.join(os.tmpdir(), `h14-${Date.now()}.pdf`)
  fs.writeFileSync(file, Buffer.from(await res.arrayBuffer()))
  const text = execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' })
  fs.rmSync(file, { force: true })
  expect(text).toContain('Receipt for Grace Hopper')

  // The toast's link opens the file in the Storage screen.
  await toast.getByRole('link', { name: 'Open in Storage' }).click()
  await expect(page).toHaveURL(new RegExp(`/ui/storage/${entry!.path.replace(/[.]/g, '\\.')}$`))
})

test('duplicate and delete, with the list filtered by kind and searched', async ({ page, server }) => {
  test.setTimeout(90_000)
  const { token } = await openAsAuthor(page, server)
  const list = new TemplatesPage(page)
  await list.create('sms', 'reminder', 'Reminder')
  const editor = new TemplateEditor(page)
  await editor.setCode('Message text', 'Your code is {{ code }}')
  await editor.save('reminder')
  await editor.button('Duplicate').click()
  await expect(page).toHaveURL(/\/templates\/reminder-copy$/)
  await expect(page.getByText('Duplicated as reminder-copy')).toBeVisible()
  await expect
    .poll(async () => (await server.api('/api/templates/reminder-copy', { token })).body)
    .toMatchObject({ kind: 'sms', text: 'Your code is {{ code }}', name: 'Reminder (copy)' })

  await list.open(server.ui)
  await list.filterKind('sms')
  await expect(list.row('reminder-copy')).toBeVisible()
  await list.filterKind('layout')
  await expect(list.row('reminder-copy')).toHaveCount(0)
  await list.filterKind('')
  await list.search('reminder-c')
  await expect(list.table.getByRole('row')).toHaveCount(2) // header + the copy

  await page.goto(`${server.ui}/templates/reminder-copy`)
  await editor.delete()
  await expect(page).toHaveURL(/\/templates$/)
  await expect(page.getByText('Deleted 1 item')).toBeVisible()
  await expect
    .poll(async () => (await server.api('/api/templates/reminder-copy', { token })).status)
    .toBe(404)
  expect((await server.api('/api/templates/reminder', { token })).status).toBe(200)
})

test('an edit made offline is queued, the preview says it needs the network, and it syncs once on reconnect', async ({
  page,
  server,
  link,
  through,
}) => {
  test.setTimeout(120_000)
  const { token } = await openAsAuthor(page, server, '/templates', through)
  const list = new TemplatesPage(page)
  await list.create('push', 'shipped', 'Shipped')
  const editor = new TemplateEditor(page)
  await expect(editor.previewRegion.locator('pre[data-part="title"]')).toHaveText('Hello Ada')
  await expect.poll(async () => (await server.api('/api/templates/shipped', { token })).status).toBe(200)

  await setNetwork(page.context(), link, 'offline')
  await editor.setCode('Title', 'Order {{ order }} shipped')
  await expect(page.getByText('The preview is rendered by the server and needs the network')).toBeVisible()
  await editor.save('shipped', true)
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  await expect(page.getByText('Not synced yet').first()).toBeVisible()
  expect(((await server.api('/api/templates/shipped', { token })).body as { title: string }).title).toBe(
    'Hello {{ name }}',
  )

  await setNetwork(page.context(), link, 'online')
  await expect
    .poll(
      async () => ((await server.api('/api/templates/shipped', { token })).body as { title: string }).title,
    )
    .toBe('Order {{ order }} shipped')
  expect((await writesPerDoc(server, token, 'templates')).shipped).toBe(2) // the create and the one edit
  await expect(editor.previewRegion.locator('pre[data-part="title"]')).toHaveText('Order  shipped')
})
