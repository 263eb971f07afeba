/**
 * The Messages console (issue 13, docs/using/messages.md) against real peers: an SMTP server
 * (smtp-server), an HTTP peer speaking Twilio's Messages API and a Web Push endpoint that decrypts what
 * it receives (tests/helpers/push-endpoint.ts), wired to a server of its own. Sends
 * go through the synced `message-requests` collection, so the offline case is the sync outbox's.
 */
import type { Browser, Page } from '@playwright/test'
import { type PushEndpoint, startPushEndpoint } from '../helpers/push-endpoint'
import { type SmtpPeer, startSmtpPeer } from '../helpers/smtp'
import { startTwilioPeer, type TwilioPeer } from '../helpers/twilio-peer'
import { axeViolations } from './axe'
import { type E2EServer, expect, openLoggedIn, passwordOf, startServer, test } from './fixtures'
import { MessagesPage } from './pages/messages'
import { setNetwork } from './proxied'
import { startSocketProxy } from './socket-proxy'

let server: E2EServer
let stop: () => Promise<void>
let smtp: SmtpPeer
let twilio: TwilioPeer
let push: PushEndpoint
let admin: string

test.describe.configure({ mode: 'serial' })

test.beforeAll(async () => {
  smtp = await startSmtpPeer()
  twilio = await startTwilioPeer()
  push = await startPushEndpoint()
  ;({ server, stop } = await startServer('none', {
    MOMENTUM_SMTP_URL: smtp.url,
    MOMENTUM_MAIL_FROM: 'Momentum <messages@momentum.test>',
    MOMENTUM_SMS_URL: twilio.url,
    MOMENTUM_SMS_ACCOUNT_SID: twilio.accountSid,
    MOMENTUM_SMS_AUTH_TOKEN: twilio.authToken,
    MOMENTUM_SMS_FROM: '+15550001111',
    // The push endpoint is http on loopback, allowed only with this.
    MOMENTUM_PUSH_ALLOW_PRIVATE: 'true',
  }))
  admin = await server.login()
  const ok = async (path: string, json: unknown, method = 'POST') => {
    const res = await server.api(path, { token: admin, json, method })
    if (res.status >= 300) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`)
  }
  await ok('/api/groups', { _id: 'team', name: 'Team', permissions: [] })
  await server.createUser('ann', ['messages:r'], 'Ann')
  // A sender who may send SMS only: the console's write guard must let the request through.
  await server.createUser('texter', ['messages/sms:c', 'messages:r'], 'Texter')
  await ok('/api/users/ann', { groups: ['g-ann', 'team'], phone: '+15550000001' }, 'PATCH')
  await ok('/api/users', {
    _id: 'bob',
    name: 'Bob',
    email: 'bob@example.com',
    password: passwordOf('bob'),
    groups: ['team'],
  })
  await ok('/api/templates', {
    _id: 'frame',
    kind: 'layout',
    content: '<div class="frame">{% block content %}{% endblock %}</div>',
  })
  await ok('/api/templates', {
    _id: 'welcome',
    kind: 'email',
    subject: 'Welcome to {{ product }}',
    html: '{% layout "frame" %}{% block content %}<p>Hello {{ recipient.user }}, {{ product }}</p>{% endblock %}',
    text: 'Hello {{ recipient.user }}, welcome to {{ product }}',
    sample: { product: 'Sample' },
  })
})

test.afterAll(async () => {
  await stop?.()
  await smtp?.close()
  await twilio?.close()
  await push?.close()
})

/** The server's message records to one address (read through the API, not the console). */
async function recordsTo(to: string): Promise<unknown[]> {
  const res = await server.api<Array<{ to: string }>>('/api/messages?limit=1000', { token: admin })
  if (res.status !== 200) throw new Error(`GET /api/messages: ${res.status}`)
  return res.body.filter((m) => m.to === to)
}

const cleanups: Array<() => Promise<void>> = []
test.afterEach(async () => {
  for (const c of cleanups.splice(0)) await c()
})

async function openMessages(page: Page, token = admin, through: E2EServer = server): Promise<MessagesPage> {
  await openLoggedIn(page, through, token, '/messages')
  const messages = new MessagesPage(page)
  await expect(page.getByRole('heading', { name: 'Messages', level: 1 })).toBeVisible()
  // Connected first: until then Send rightly says the message waits on this device.
  await expect(page.getByTestId('sync-status')).not.toHaveAttribute('data-state', 'offline')
  return messages
}

test('an e-mail template sent to a group: one rendered mail per member, each with the bcc', async ({
  page,
}) => {
  const messages = await openMessages(page)
  await messages.channel('Email')
  await messages.addRecipient('group:team', 'Team (group)')
  await messages.field('Bcc').fill('audit@example.com')
  await messages.template('welcome')
  await messages.field('Data (JSON)').fill('{"product": "Momentum"}')
  // The preview renders per member, as the send will.
  await messages.composer.getByRole('button', { name: 'Preview per recipient' }).click()
  await expect(messages.composer.getByText('For ann@example.com')).toBeVisible()
  await expect(
    messages.composer
      .frameLocator('iframe[title="Preview for bob@example.com"]')
      .getByText('Hello bob, Momentum'),
  ).toBeVisible()
  await messages.send()
  await expect(messages.status).toContainText('Sent to the queue')

  for (const user of ['ann', 'bob']) {
    const mail = await smtp.waitForMail((m) => m.to.includes(`${user}@example.com`))
    expect(mail.to.sort()).toEqual(['audit@example.com', `${user}@example.com`].sort())
    expect(mail.decoded).toContain('Subject: Welcome to Momentum')
    expect(mail.decoded).toContain(`Hello ${user}, welcome to Momentum`)
  }
  // The history follows the queue live.
  for (const to of ['ann@example.com', 'bob@example.com']) {
    await expect(messages.entries(to).first()).toHaveAttribute('data-status', 'sent')
  }
  expect(smtp.mails.filter((m) => m.decoded.includes('Welcome to Momentum'))).toHaveLength(2)
})

test('an SMS arrives at the Twilio peer, sent by a user who may send SMS only', async ({ page }) => {
  const messages = await openMessages(page, await server.login('texter', passwordOf('texter')))
  await messages.channel('Email')
  await expect(messages.composer.getByText('You may not send Email messages')).toBeVisible()
  await expect(messages.composer.getByRole('button', { name: 'Send' })).toBeDisabled()
  await messages.channel('SMS')
  const input = messages.composer.getByLabel('Add a recipient')
  await input.fill('+12')
  await input.press('Enter')
  await expect(messages.composer.getByRole('alert')).toContainText(
    'not a phone number in international E.164 form',
  )
  await messages.addRecipient('+1 555 000 7777', '+15550007777')
  await messages.field('Text').fill('Your parcel is at the door')
  await messages.send()
  const [sms] = await twilio.waitForMessages(1)
  expect(sms).toMatchObject({ to: '+15550007777', body: 'Your parcel is at the door' })
  await expect(messages.entries('+15550007777')).toHaveAttribute('data-status', 'sent')
})

test('a push arrives at its peer, rendered per recipient', async ({ page }) => {
  // Bob's browser subscribed: what the PWA's notification toggle sends, with the peer's keys.
  const sub = push.subscribe()
  const bob = await server.login('bob', passwordOf('bob'))
  const res = await server.api('/api/notifications', { method: 'PATCH', json: sub.json, token: bob })
  expect(res.status).toBe(200)
  const created = await server.api('/api/templates', {
    token: admin,
    json: {
      _id: 'nudge',
      kind: 'push',
      title: 'Hi {{ recipient.user }}',
      body: '{{ what }}',
      link: '/ui/logs',
    },
  })
  expect(created.status).toBe(201)

  const messages = await openMessages(page)
  await messages.channel('Push')
  await messages.addRecipient('bob', 'Bob')
  await messages.template('nudge')
  await messages.field('Data (JSON)').fill('{"what": "Orders are in"}')
  await messages.send()
  await expect(messages.status).toContainText('Sent to the queue')
  await expect(messages.entries('bob')).toHaveAttribute('data-status', 'sent')
  const received = push.received.filter((p) => p.subscription === sub.id)
  expect(received.map((p) => p.payload)).toEqual([
    { type: 'notification', title: 'Hi bob', body: 'Orders are in', url: '/ui/logs' },
  ])
})

test('a message composed offline is sent exactly once after reconnect', async ({ page, context }) => {
  // The console goes through a proxy that really cuts the server off: setOffline alone does not stop
  // the sync worker's or the service worker's requests (issue 19), which could send it "offline".
  const proxy = await startSocketProxy(server.url)
  cleanups.push(() => proxy.close())
  const messages = await openMessages(page, admin, proxy.via(server))
  await messages.channel('SMS')
  await messages.addRecipient('ann', 'Ann')
  await setNetwork(context, proxy, 'offline')
  await messages.field('Text').fill('Composed on the train')
  await messages.send()
  await expect(messages.status).toContainText('queued on this device')
  await expect(page.getByText('1 message waits on this device')).toBeVisible()
  const before = twilio.requests
  expect(await recordsTo('+15550000001')).toHaveLength(0)

  await setNetwork(context, proxy, 'online')
  await expect
    .poll(() => twilio.messages.filter((m) => m.body === 'Composed on the train').length, { timeout: 30_000 })
    .toBe(1)
  await expect(page.getByText('1 message waits on this device')).toBeHidden()
  await expect(messages.entries('+15550000001')).toHaveAttribute('data-status', 'sent')
  // A reload (and its sync) sends nothing again.
  await page.reload()
  await expect(messages.entries('+15550000001')).toHaveCount(1)
  expect(await recordsTo('+15550000001')).toHaveLength(1)
  expect(twilio.requests - before).toBe(1)
})

test('with the server out of reach but the browser "online", Send says the message waits on this device', async ({
  page,
}) => {
  // Only the link is cut (a Wi-Fi without internet, the server down): navigator.onLine stays true, so
  // the screen must go by the engine's verdict, not claim the message reached the queue.
  const proxy = await startSocketProxy(server.url)
  cleanups.push(() => proxy.close())
  const messages = await openMessages(page, admin, proxy.via(server))
  await messages.channel('SMS')
  await messages.addRecipient('ann', 'Ann')
  proxy.offline = true
  proxy.killEngineSockets()
  await expect(page.getByTestId('sync-status')).toHaveAttribute('data-state', 'offline')
  expect(await page.evaluate(() => navigator.onLine)).toBe(true)
  await messages.field('Text').fill('Sent from a dead link')
  await messages.send()
  await expect(messages.status).toContainText('queued on this device')
  await expect(messages.status).not.toContainText('Sent to the queue')
  proxy.offline = false
  await expect
    .poll(() => twilio.messages.filter((m) => m.body === 'Sent from a dead link').length, {
      timeout: 30_000,
    })
    .toBe(1)
})

test('a failing provider shows "failed" with its error, and a later Resend succeeds', async ({ page }) => {
  const messages = await openMessages(page)
  await messages.channel('Email')
  await messages.addRecipient('carol@example.com', 'carol@example.com')
  await messages.field('Subject').fill('Quarterly report')
  await messages.field('Text').fill('Attached, as promised')
  smtp.rejectWith = 550
  await messages.send()
  const entry = messages.entries('carol@example.com')
  await expect(entry).toHaveAttribute('data-status', 'failed')
  await expect(entry).toContainText('550')
  smtp.rejectWith = null
  await entry.getByRole('button', { name: 'Resend' }).click()
  await expect(entry).toHaveAttribute('data-status', 'sent')
  const mail = await smtp.waitForMail((m) => m.to.includes('carol@example.com'))
  expect(mail.decoded).toContain('Subject: Quarterly report')
})

test('a call invitation rings in the invitee’s console with accept and decline', async ({
  page,
  browser,
}) => {
  const annPage = await loggedInAs(browser, 'ann')
  const messages = await openMessages(page)
  await messages.channel('Call')
  await messages.addRecipient('user:ann', 'Ann')
  await messages.field('Room').fill('standup-42')
  await messages.send()
  const invite = annPage.getByRole('alertdialog', { name: 'Administrator invites you to a call' })
  await expect(invite).toBeVisible({ timeout: 20_000 })
  await expect(invite.getByRole('link', { name: 'Accept' })).toHaveAttribute('href', '/ui/video/standup-42')
  await expect(invite.getByRole('button', { name: 'Decline' })).toBeVisible()
  expect(await axeViolations(annPage, { within: '.call-invitations' })).toEqual([])
  await annPage.context().close()
})

async function loggedInAs(browser: Browser, user: string): Promise<Page> {
  const context = await browser.newContext()
  const page = await context.newPage()
  const token = await server.login(user, passwordOf(user))
  await openLoggedIn(page, server, token, '/')
  await expect(page.getByRole('main')).toBeVisible()
  return page
}

test('the screen works at 375 px', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 })
  const messages = await openMessages(page)
  await messages.channel('Email')
  await messages.addRecipient('group:team', 'Team (group)')
  await messages.composer.getByRole('button', { name: 'Preview per recipient' }).click()
  await page.screenshot({ path: 'test-results/screenshots/messages-375.png', fullPage: true })
  expect(await axeViolations(page, { within: 'main' })).toEqual([])
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
  expect(overflow).toBeLessThanOrEqual(0)
  await expect(messages.composer.getByRole('button', { name: 'Send' })).toBeVisible()
})
