/**
 * Push end to end on the server side: the real server sends with web-push to a local push endpoint
 * that verifies the VAPID signature and decrypts the aes128gcm payload with the fake subscriber's own
 * P-256 key, as a browser would; a 410 from the endpoint removes the subscription.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { configFromEnv } from '../../src/server/config'
import { startServer } from '../../src/server/server'
import { PWA_TEXT } from '../../src/shared/texts'
import { type PushEndpoint, startPushEndpoint } from '../helpers/push-endpoint'
import { suiteServer } from '../helpers/suite-server'

let push: PushEndpoint
let alice: string

beforeAll(async () => {
  push = await startPushEndpoint()
  // The local push endpoint is http on loopback: allowed only through MOMENTUM_PUSH_ALLOW_PRIVATE.
})
afterAll(async () => {
  await push.close()
})
const server = suiteServer(() => ({ pushAllowPrivate: true }))
beforeAll(async () => {
  alice = await server.userWith('alice', [])
})

const send = (json: unknown, token = server.admin, headers: Record<string, string> = {}) =>
  server.api('/api/notifications', { method: 'POST', json, token, headers })

describe('VAPID keys', () => {
  it('are made on first start, kept in the data dir and published as push_public_key', async () => {
    const file = JSON.parse(fs.readFileSync(path.join(server.dataDir, 'vapid.json'), 'utf8'))
    const res = await server.api('/api/settings/push_public_key')
    expect(res.status).toBe(200)
    expect((res.body as { value: string }).value).toBe(file.publicKey)
    expect(Buffer.from(file.publicKey, 'base64url')).toHaveLength(65)
  })

  it('cannot be changed through the settings API', async () => {
    const res = await server.api('/api/settings/push_public_key', {
      method: 'PATCH',
      json: { value: 'x' },
      token: server.admin,
    })
    expect(res.status).toBe(405)
  })

  it('survive a restart on the same data dir', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'momentum-vapid-'))
    const config = { ...configFromEnv({}), port: 0, dataDir, uiDir: path.join(dataDir, 'no-ui'), quiet: true }
    const first = await startServer({ ...config, seed: 'none' })
    const key1 = (await first.services.store.get('settings', 'push_public_key'))?.value
    await first.close()
    const second = await startServer({ ...config, seed: 'none' })
    const key2 = (await second.services.store.get('settings', 'push_public_key'))?.value
    await second.close()
    fs.rmSync(dataDir, { recursive: true, force: true })
    expect(typeof key1).toBe('string')
    expect(key2).toBe(key1)
  })
})

describe('PATCH and DELETE /api/notifications', () => {
  it('refuses anonymous callers and malformed subscriptions', async () => {
    const sub = push.subscribe().json
    expect((await server.api('/api/notifications', { method: 'PATCH', json: sub })).status).toBe(401)
    const bad = [
      {},
      { endpoint: sub.endpoint },
      { endpoint: 'ftp://x/y', keys: sub.keys },
      { endpoint: sub.endpoint, keys: { p256dh: sub.keys.p256dh } },
      { endpoint: sub.endpoint, keys: { p256dh: 'AAAA', auth: sub.keys.auth } },
      { endpoint: sub.endpoint, keys: { p256dh: sub.keys.p256dh, auth: 'not base64!' } },
    ]
    for (const json of bad) {
      const res = await server.api('/api/notifications', { method: 'PATCH', json, token: alice })
      expect(res.status, JSON.stringify(json)).toBe(400)
      expect(res.body).toEqual({ error: 'bad_request', message: PWA_TEXT.subscriptionInvalid })
    }
  })

  it('DELETE removes only the caller’s own subscription', async () => {
    const bob = await server.userWith('bob', [])
    const sub = push.subscribe()
    expect(
      (await server.api('/api/notifications', { method: 'PATCH', json: sub.json, token: bob })).status,
    ).toBe(200)

    const byAlice = await server.api('/api/notifications', { method: 'DELETE', json: sub.json, token: alice })
    expect(byAlice.body).toMatchObject({ ok: true, removed: false })
    let res = await send({ to: ['bob'], title: 'still there' })
    expect((res.body as { results: unknown[] }).results[0]).toMatchObject({
      to: 'bob',
      status: 'sent',
      sent: 1,
    })

    const byBob = await server.api('/api/notifications', { method: 'DELETE', json: sub.json, token: bob })
    expect(byBob.body).toMatchObject({ ok: true, removed: true })
    res = await send({ to: ['bob'], title: 'gone' })
    expect((res.body as { results: unknown[] }).results[0]).toMatchObject({
      to: 'bob',
      status: 'no_subscription',
      subscriptions: 0,
    })
    expect(push.received.filter((r) => r.subscription === sub.id)).toHaveLength(1)
  })
})

describe('POST /api/notifications', () => {
  it('needs notifications:c and a valid message', async () => {
    expect((await send({ to: ['alice'], title: 'hi' }, alice)).status).toBe(403)
    const sender = await server.userWith('sender', ['notifications:c'])
    expect((await send({ to: ['nobody'], title: 'hi' }, sender)).status).toBe(200)
    const cases: Array<[unknown, string]> = [
      [{ title: 'x' }, PWA_TEXT.notifyToMissing],
      [{ to: [], title: 'x' }, PWA_TEXT.notifyToMissing],
      [{ to: [1], title: 'x' }, PWA_TEXT.notifyToMissing],
      [{ to: ['alice'], title: '  ' }, PWA_TEXT.notifyTitleMissing],
      [{ to: ['alice'], title: 'x', body: 5 }, PWA_TEXT.notifyFieldInvalid('body')],
      [{ to: ['alice'], title: 'x', url: 'javascript:alert(1)' }, PWA_TEXT.notifyUrlInvalid],
      [{ to: ['alice'], title: 'x', body: 'y'.repeat(5000) }, PWA_TEXT.notifyTooLarge(3000)],
    ]
    for (const [json, message] of cases) {
      const res = await send(json)
      expect(res.status, JSON.stringify(json).slice(0, 80)).toBe(400)
      expect((res.body as { message: string }).message).toBe(message)
    }
  })

  it('sends an encrypted, VAPID-signed message that the subscriber decrypts', async () => {
    const phone = push.subscribe()
    const laptop = push.subscribe()
    for (const s of [phone, laptop]) {
      const res = await server.api('/api/notifications', { method: 'PATCH', json: s.json, token: alice })
      expect(res.status).toBe(200)
    }
    const res = await send({
      to: ['alice', 'nobody'],
      title: 'Order shipped',
      body: 'Order 42 left the warehouse',
      url: '/ui/transactions',
      icon: '/ui/icons/icon-192.png',
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      sent: 2,
      results: [
        { to: 'alice', status: 'sent', subscriptions: 2, sent: 2, removed: 0, failed: 0 },
        { to: 'nobody', status: 'no_subscription', subscriptions: 0, sent: 0, removed: 0, failed: 0 },
      ],
    })
    const got = push.received.filter((r) => r.subscription === phone.id || r.subscription === laptop.id)
    expect(got.map((r) => r.subscription).sort()).toEqual([phone.id, laptop.id].sort())
    const publicKey = (await server.api('/api/settings/push_public_key')).body as { value: string }
    for (const r of got) {
      expect(r.payload).toEqual({
        type: 'notification',
        title: 'Order shipped',
        body: 'Order 42 left the warehouse',
        url: '/ui/transactions',
        icon: '/ui/icons/icon-192.png',
      })
      expect(r.contentEncoding).toBe('aes128gcm')
      expect(r.vapid.aud).toBe(push.url)
      expect(r.vapid.publicKey).toBe(publicKey.value)
      expect(r.vapid.sub).toMatch(/^(mailto:|https:)/)
    }
    expect(push.rejected).toEqual([])
  })

  it('removes a subscription the push service reports gone (410) and reports it', async () => {
    const carol = await server.userWith('carol', [])
    const live = push.subscribe()
    const dead = push.subscribe()
    for (const s of [live, dead]) {
      await server.api('/api/notifications', { method: 'PATCH', json: s.json, token: carol })
    }
    push.respondWith(dead.id, 410)
    let res = await send({ to: 'carol', title: 'first' })
    expect((res.body as { results: unknown[] }).results).toEqual([
      { to: 'carol', status: 'sent', subscriptions: 2, sent: 1, removed: 1, failed: 0 },
    ])
    res = await send({ to: 'carol', title: 'second' })
    expect((res.body as { results: unknown[] }).results).toEqual([
      { to: 'carol', status: 'sent', subscriptions: 1, sent: 1, removed: 0, failed: 0 },
    ])
    // Re-subscribing the same browser works again afterwards.
    push.respondWith(dead.id, 201)
    await server.api('/api/notifications', { method: 'PATCH', json: dead.json, token: carol })
    res = await send({ to: 'carol', title: 'third' })
    expect((res.body as { results: Array<{ sent: number }> }).results[0]!.sent).toBe(2)
  })

  it('reports a push service error as failed and keeps the subscription', async () => {
    const dave = await server.userWith('dave', [])
    const sub = push.subscribe()
    await server.api('/api/notifications', { method: 'PATCH', json: sub.json, token: dave })
    push.respondWith(sub.id, 500)
    const res = await send({ to: ['dave'], title: 'x' })
    expect((res.body as { results: unknown[] }).results).toEqual([
      {
        to: 'dave',
        status: 'failed',
        subscriptions: 1,
        sent: 0,
        removed: 0,
        failed: 1,
        errors: ['push service answered 500'],
      },
    ])
    push.respondWith(sub.id, 201)
    const again = await send({ to: ['dave'], title: 'y' })
    expect((again.body as { results: Array<{ sent: number }> }).results[0]!.sent).toBe(1)
  })

  it('sends once per Idempotency-Key, so a replayed outbox entry does not notify twice', async () => {
    const erin = await server.userWith('erin', [])
    const sub = push.subscribe()
    await server.api('/api/notifications', { method: 'PATCH', json: sub.json, token: erin })
    const json = { to: ['erin'], title: 'once' }
    const headers = { 'idempotency-key': 'notify-erin-1' }
    const a = await send(json, server.admin, headers)
    const b = await send(json, server.admin, headers)
    expect(b.status).toBe(200)
    expect(b.body).toEqual(a.body)
    expect(b.headers.get('idempotent-replayed')).toBe('true')
    expect(push.received.filter((r) => r.subscription === sub.id)).toHaveLength(1)
  })
})
