/**
 * The notifications toggle end to end in real Chromium. Headless Chromium has no push service, so the
 * browser's PushManager is given one: subscribe/getSubscription are replaced (before any console code
 * runs) by a subscription whose endpoint is the local push endpoint (tests/helpers/push-endpoint.ts),
 * holding a real P-256 key pair and auth secret. Everything else is real: the console subscribes
 * with the server's VAPID key and stores the subscription on the server, the server encrypts and
 * signs a real Web Push message to that endpoint, the endpoint verifies and decrypts it, and the
 * decrypted payload is delivered to the console's service worker (ServiceWorker.deliverPushMessage),
 * which shows it. Turning the toggle off removes the subscription on the server; so does logging out,
 * which also unsubscribes the browser, so the next user of a shared browser starts with it off.
 */

import type { BrowserContext } from '@playwright/test'
import { PWA_TEXT } from '../../src/shared/texts'
import { type PushEndpoint, startPushEndpoint } from '../helpers/push-endpoint'
import { expect, openLoggedIn, passwordOf, test } from './fixtures'
import { LoginPage } from './pages/login-page'
import { registrationId, serviceWorkerReady } from './pages/service-worker'
import { Shell } from './pages/shell'

interface SendResult {
  sent: number
  results: Array<{ to: string; status: string; subscriptions?: number; sent?: number }>
}

// The local push endpoint is http on loopback, which the server refuses unless told otherwise.
test.use({ serverEnv: { MOMENTUM_PUSH_ALLOW_PRIVATE: 'true' } })

let endpoint: PushEndpoint
test.beforeAll(async () => {
  endpoint = await startPushEndpoint()
})
test.afterAll(async () => {
  await endpoint?.close()
})

/** What the replaced PushManager was asked for, kept in sessionStorage so a reload still sees it. */
const STATE_KEY = 'momentum-e2e-push-subscription'

/**
 * Gives the browser a push service: PushManager.subscribe / getSubscription hand out a subscription at
 * the local push endpoint, holding a real key pair. Returns that endpoint's subscription.
 */
async function fakePushService(context: BrowserContext) {
  const subscription = endpoint.subscribe()
  await context.addInitScript(
    ({ json, stateKey }) => {
      const fromBase64url = (s: string) =>
        Uint8Array.from(atob(s.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0)).buffer
      type State = { userVisibleOnly: boolean; key: number[] }
      const make = (state: State) => ({
        endpoint: json.endpoint,
        expirationTime: null,
        options: {
          userVisibleOnly: state.userVisibleOnly,
          applicationServerKey: new Uint8Array(state.key).buffer,
        },
        getKey: (name: 'p256dh' | 'auth') => fromBase64url(json.keys[name]),
        toJSON: () => json,
        unsubscribe: async () => {
          sessionStorage.removeItem(stateKey)
          return true
        },
      })
      PushManager.prototype.subscribe = async function subscribe(options?: PushSubscriptionOptionsInit) {
        const key = options?.applicationServerKey
        const bytes =
          key instanceof ArrayBuffer
            ? new Uint8Array(key)
            : ArrayBuffer.isView(key)
              ? new Uint8Array(key.buffer)
              : []
        const state: State = { userVisibleOnly: !!options?.userVisibleOnly, key: [...bytes] }
        sessionStorage.setItem(stateKey, JSON.stringify(state))
        return make(state) as unknown as PushSubscription
      }
      PushManager.prototype.getSubscription = async function getSubscription() {
        const raw = sessionStorage.getItem(stateKey)
        return raw ? (make(JSON.parse(raw) as State) as unknown as PushSubscription) : null
      }
    },
    { json: subscription.json, stateKey: STATE_KEY },
  )
  return subscription
}

test('toggle on → the server sends a real push → the worker shows it; toggle off → nothing to send to', async ({
  page,
  context,
  server,
}) => {
  const subscription = await fakePushService(context)
  await context.grantPermissions(['notifications'], { origin: server.url })
  const token = await server.login()
  await openLoggedIn(page, server, token, '/')
  await serviceWorkerReady(page)

  const shell = new Shell(page)
  await shell.avatar.click()
  const toggle = page.getByRole('switch', { name: new RegExp(PWA_TEXT.notifications) })
  await expect(toggle).toBeEnabled()
  await expect(toggle).not.toBeChecked()
  await toggle.click()
  await expect(toggle).toBeChecked()

  // The console subscribed as the spec says: user-visible only, with the server's VAPID public key.
  const asked = await page.evaluate(
    (key) => JSON.parse(sessionStorage.getItem(key) ?? 'null') as { userVisibleOnly: boolean; key: number[] },
    STATE_KEY,
  )
  const serverKey = await server.api<{ value: string }>('/api/settings/push_public_key', { token })
  expect(asked.userVisibleOnly).toBe(true)
  expect(Buffer.from(asked.key).toString('base64url')).toBe(serverKey.body.value)

  // The server has the subscription: a notification to this user reaches the endpoint, encrypted.
  const message = { to: ['admin'], title: 'Order shipped', body: 'Order 42', url: '/ui/users' }
  const sent = await server.api<SendResult>('/api/notifications', { token, json: message })
  expect(sent.status).toBe(200)
  expect(sent.body.results).toEqual([
    expect.objectContaining({ to: 'admin', status: 'sent', subscriptions: 1 }),
  ])
  await expect.poll(() => endpoint.received.filter((r) => r.subscription === subscription.id).length).toBe(1)
  const push = endpoint.received.find((r) => r.subscription === subscription.id)!
  expect(endpoint.rejected).toEqual([])
  expect(push.payload).toMatchObject({ title: 'Order shipped', body: 'Order 42', url: '/ui/users' })

  // What the push service would hand the browser: the decrypted payload, into the console's worker.
  const cdp = await context.newCDPSession(page)
  await cdp.send('ServiceWorker.deliverPushMessage', {
    origin: server.url,
    registrationId: await registrationId(cdp, `${server.ui}/`),
    data: JSON.stringify(push.payload),
  })
  const shown = () =>
    page.evaluate(async () => {
      const registration = await navigator.serviceWorker.ready
      const list = await registration.getNotifications()
      return list.map((n) => ({ title: n.title, body: n.body, data: n.data as unknown }))
    })
  await expect
    .poll(shown)
    .toEqual([{ title: 'Order shipped', body: 'Order 42', data: { url: `${server.ui}/users` } }])

  // A reload shows the browser's subscription again; off removes it from the server too.
  await page.reload()
  await shell.avatar.click()
  await expect(toggle).toBeChecked()
  await toggle.click()
  await expect(toggle).not.toBeChecked()
  await expect
    .poll(
      async () => (await server.api<SendResult>('/api/notifications', { token, json: message })).body.results,
    )
    .toEqual([expect.objectContaining({ to: 'admin', status: 'no_subscription' })])
  expect(endpoint.received.filter((r) => r.subscription === subscription.id)).toHaveLength(1)
})

test('logout unsubscribes this browser and removes it on the server; the next user sees notifications off', async ({
  page,
  context,
  server,
}) => {
  const subscription = await fakePushService(context)
  await context.grantPermissions(['notifications'], { origin: server.url })
  await server.createUser('next-user', [])
  // Another session of admin asks the server to send, before and after the console's logout.
  const sender = await server.login()
  const message = { to: ['admin'], title: 'Shift report', body: 'For admin only' }
  const send = async () =>
    (await server.api<SendResult>('/api/notifications', { token: sender, json: message })).body.results

  await openLoggedIn(page, server, await server.login(), '/')
  await serviceWorkerReady(page)
  const shell = new Shell(page)
  await shell.avatar.click()
  const toggle = page.getByRole('switch', { name: new RegExp(PWA_TEXT.notifications) })
  await toggle.click()
  await expect(toggle).toBeChecked()
  expect(await send()).toEqual([expect.objectContaining({ to: 'admin', status: 'sent', subscriptions: 1 })])
  await expect.poll(() => endpoint.received.filter((r) => r.subscription === subscription.id).length).toBe(1)

  // Logout from the same avatar menu (nothing unsent: no question asked).
  await page.getByRole('button', { name: 'Logout' }).click()
  await expect(page).toHaveURL(/\/ui\/login/)
  // The browser's subscription is gone, and the server no longer sends this device admin's messages.
  expect(await page.evaluate((key) => sessionStorage.getItem(key), STATE_KEY)).toBeNull()
  expect(await send()).toEqual([expect.objectContaining({ to: 'admin', status: 'no_subscription' })])
  expect(endpoint.received.filter((r) => r.subscription === subscription.id)).toHaveLength(1)

  // The next person on this browser finds notifications off.
  await new LoginPage(page).login('next-user', passwordOf('next-user'))
  await expect(page).not.toHaveURL(/\/login/)
  await shell.avatar.click()
  await expect(toggle).toBeEnabled()
  await expect(toggle).not.toBeChecked()
})
