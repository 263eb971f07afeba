/**
 * Issue 36 #1 and #4 on the Messages screen, on a server with no SMTP and no SMS provider: what the
 * mirror can tell is checked before sending (a user without a phone), the draft stays until the
 * server accepted the send, the status row is neutral while the request waits and turns to sent or
 * refused in place, a send refused after an offline queue shows next to the recipients (and again on
 * the next visit, with "Edit and resend"), the "waits … when the network is back" banner shows only
 * offline, and "Queued: e-mail is not configured on this server" is said on the status row, the
 * history row and a template's "Send a test". The cut is real (proxied.ts).
 */
import type { Page } from '@playwright/test'
import { MESSAGES_CONSOLE_TEXT, MESSAGING_TEXT } from '../../src/shared/texts'
import { type E2EServer, expect, openLoggedIn } from './fixtures'
import { MessagesPage } from './pages/messages'
import { setNetwork, test } from './proxied'

test.describe.configure({ mode: 'serial' })

async function setup(server: E2EServer): Promise<string> {
  const admin = await server.login()
  const ok = async (path: string, json: unknown, method = 'POST') => {
    const res = await server.api(path, { token: admin, json, method })
    if (res.status >= 300 && res.status !== 409)
      throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`)
  }
  await ok('/api/users/admin', { email: 'admin@example.com' }, 'PATCH')
  for (const [id, fields] of [
    ['ann', { name: 'Ann', phone: '+15550000001', email: 'ann@example.com' }],
    ['cy', { name: 'Cy' }],
  ] as const) {
    if ((await server.api(`/api/users/${id}`, { token: admin })).status === 404)
      await server.createUser(id, ['messages:r'], fields.name)
    await ok(`/api/users/${id}`, fields, 'PATCH')
  }
  await ok('/api/templates', {
    _id: 'order-note',
    kind: 'email',
    name: 'Order note',
    subject: 'Hello {{ name }}',
    text: 'Hello {{ name }}, order {{ order }}',
    sample: { name: 'Ada', email: 'ada@example.com', order: '1042' },
  })
  return admin
}

async function openMessages(page: Page, through: E2EServer, token: string): Promise<MessagesPage> {
  await openLoggedIn(page, through, token, '/messages')
  await expect(page.getByRole('heading', { name: 'Messages', level: 1 })).toBeVisible()
  await expect(page.getByTestId('sync-status')).not.toHaveAttribute('data-state', 'offline')
  return new MessagesPage(page)
}

test('an SMS to a user without a phone is held back before sending, with the reason in the preview', async ({
  page,
  server,
  through,
}) => {
  const admin = await setup(server)
  const messages = await openMessages(page, through, admin)
  await messages.channel('SMS')
  await messages.addRecipient('cy', 'Cy')
  const reason = MESSAGING_TEXT.noAddress('cy', 'sms')
  await expect(messages.composer.getByTestId('recipient-error')).toHaveText(reason)
  await messages.field('Text').fill('Your parcel is here')
  await messages.composer.getByRole('button', { name: 'Preview per recipient' }).click()
  await expect(messages.composer.getByTestId('preview-problems')).toContainText(`Not sent: ${reason}`)
  await messages.send()
  await expect(
    messages.composer.getByRole('alert').filter({ hasText: MESSAGES_CONSOLE_TEXT.fixRecipients }),
  ).toBeVisible()
  // Nothing was queued, and the draft is all there.
  await expect(messages.composer.getByRole('list', { name: 'Recipients' }).getByText('Cy')).toBeVisible()
  await expect(messages.field('Text')).toHaveValue('Your parcel is here')
  await expect(messages.composer.getByTestId('send-status')).toHaveCount(0)
  const records = await server.api<Array<{ user: string }>>('/api/messages?limit=1000', { token: admin })
  expect(records.body.filter((r) => r.user === 'cy')).toHaveLength(0)
})

test('a send queued offline and refused on reconnect shows next to the recipients, the draft kept', async ({
  page,
  context,
  server,
  link,
  through,
}) => {
  const admin = await setup(server)
  const messages = await openMessages(page, through, admin)
  await messages.channel('SMS')
  await messages.addRecipient('ann', 'Ann')
  await setNetwork(context, link, 'offline')
  await expect(page.getByTestId('sync-status')).toHaveAttribute('data-state', 'offline')
  await messages.field('Text').fill('Composed on the train')
  await messages.send()
  const status = messages.composer.getByTestId('send-status')
  await expect(status).toHaveAttribute('data-state', 'waiting')
  await expect(status).toHaveText(MESSAGES_CONSOLE_TEXT.queuedOffline)
  await expect(page.getByText('1 message waits on this device')).toBeVisible()
  // Meanwhile Ann's phone number is removed: the server will refuse the queued send.
  const cleared = await server.api('/api/users/ann', { token: admin, method: 'PATCH', json: { phone: null } })
  expect(cleared.status).toBe(200)

  await setNetwork(context, link, 'online')
  const reason = MESSAGING_TEXT.noAddress('ann', 'sms')
  // The same row turns to the refusal; the server's words stand next to the recipients.
  await expect(status).toHaveAttribute('data-state', 'refused', { timeout: 30_000 })
  await expect(status).not.toContainText('Sent to the queue')
  const note = messages.composer.getByTestId('refusal-note')
  await expect(note).toHaveCount(1)
  await expect(note).toContainText(MESSAGES_CONSOLE_TEXT.refused(reason))
  // Right under the recipients field, not at the foot of the form.
  await expect(messages.composer.locator('.recipient-picker + [data-testid="refusal-note"]')).toBeVisible()
  await expect(messages.composer.getByRole('list', { name: 'Recipients' }).getByText('Ann')).toBeVisible()
  await expect(messages.field('Text')).toHaveValue('Composed on the train')
  // Online: no "when the network is back" banner for a request that waits for nobody.
  await expect(page.getByText('waits on this device')).toBeHidden()
  await page.setViewportSize({ width: 1280, height: 900 })
  await page.screenshot({ path: '/tmp/shots/messages-refused-1280.png', fullPage: true })
  await page.setViewportSize({ width: 375, height: 800 })
  await page.screenshot({ path: '/tmp/shots/messages-refused-375.png', fullPage: true })
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
  expect(overflow).toBeLessThanOrEqual(0)
  await page.setViewportSize({ width: 1280, height: 900 })

  // The next visit: the refusal is listed, and "Edit and resend" brings the message back.
  await page.reload()
  await expect(page.getByRole('heading', { name: 'Messages', level: 1 })).toBeVisible()
  const earlier = messages.composer.getByTestId('refused-sends')
  await expect(earlier).toContainText(reason)
  await earlier.getByRole('button', { name: MESSAGES_CONSOLE_TEXT.editAndResend }).click()
  await expect(messages.composer.getByRole('tab', { name: 'SMS' })).toHaveAttribute('aria-selected', 'true')
  await expect(messages.field('Text')).toHaveValue('Composed on the train')
  await expect(messages.composer.getByTestId('refusal-note')).toContainText(reason)
  await expect(earlier).toHaveCount(0)

  // Fixed on the server; sending again replaces the refused request and is accepted. No SMS provider
  // here: it is queued, and the row says so instead of a success.
  await server.api('/api/users/ann', { token: admin, method: 'PATCH', json: { phone: '+15550000001' } })
  // Send is held back until the mirror has the number again (the check before sending): retried.
  await expect(async () => {
    await messages.send()
    await expect(status).not.toHaveAttribute('data-state', 'refused', { timeout: 2000 })
  }).toPass({ timeout: 30_000 })
  await expect(status).toHaveAttribute('data-state', 'not-configured', { timeout: 30_000 })
  await expect(status).toContainText(MESSAGES_CONSOLE_TEXT.notConfigured('sms'))
  await expect(messages.composer.getByTestId('refusal-note')).toHaveCount(0)
  // Accepted: now the draft clears.
  await expect(messages.field('Text')).toHaveValue('')
  await expect(messages.entries('+15550000001').first()).toContainText(
    MESSAGES_CONSOLE_TEXT.notConfigured('sms'),
  )
})

test('e-mail without SMTP: "Queued: e-mail is not configured on this server", and the sample-data warning', async ({
  page,
  server,
  through,
}) => {
  const admin = await setup(server)
  const messages = await openMessages(page, through, admin)
  await messages.channel('Email')
  await messages.addRecipient('ann', 'Ann')
  await messages.template('order-note')
  await expect(messages.composer.getByTestId('sample-data-note')).toContainText(
    'This uses the template’s sample data for every recipient: order as in the sample',
  )
  await messages.send()
  const status = messages.composer.getByTestId('send-status')
  await expect(status).toHaveAttribute('data-state', 'not-configured')
  await expect(status).toContainText('Queued: e-mail is not configured on this server')
  const row = messages.entries('ann@example.com').first()
  await expect(row).toContainText('Queued: e-mail is not configured on this server')
  // Rendered with Ann's own name, not the sample's Ada.
  await expect(row).toContainText('Hello Ann')
  await page.screenshot({ path: '/tmp/shots/messages-not-configured-1280.png', fullPage: true })

  // A template's "Send a test to me" says the same, as a warning.
  await openLoggedIn(page, through, admin, '/templates/order-note')
  await page.getByRole('button', { name: 'Send a test to me' }).click()
  const toast = page
    .locator('.mc-toast')
    .filter({ hasText: 'Queued: e-mail is not configured on this server' })
  await expect(toast).toBeVisible()
  await expect(page.locator('.mc-toast').filter({ hasText: 'A test was sent' })).toHaveCount(0)
})
