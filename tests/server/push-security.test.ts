/**
 * Push subscriptions as an attacker would use them (issue 10, "push endpoints may point at private
 * addresses and may be taken over by another user"): endpoints must be public https hosts, checked
 * when stored and again, on the resolved address, when sending; an endpoint stored by one user cannot
 * be re-bound to another; concurrent repeats of one Idempotency-Key send once.
 * MOMENTUM_PUSH_ALLOW_PRIVATE=true admits the local push endpoint (the second server).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { configFromEnv } from '../../src/server/config'
import { endpointAllowed, isPrivateAddress } from '../../src/server/push/endpoint-address'
import { SUBSCRIPTIONS, subscriptionId } from '../../src/server/push/subscriptions'
import { PWA_TEXT } from '../../src/shared/texts'
import { type PushEndpoint, startPushEndpoint } from '../helpers/push-endpoint'
import { startTestServer, type TestServer } from '../helpers/server'

let strict: TestServer
let local: TestServer
let push: PushEndpoint

beforeAll(async () => {
  push = await startPushEndpoint()
  strict = await startTestServer()
  local = await startTestServer({ pushAllowPrivate: true })
})
afterAll(async () => {
  await strict?.close()
  await local?.close()
  await push?.close()
})

const subscribe = (server: TestServer, token: string, json: unknown) =>
  server.api('/api/notifications', { method: 'PATCH', json, token })
const admins = new Map<TestServer, string>()
const notify = async (server: TestServer, json: unknown, headers: Record<string, string> = {}) => {
  if (!admins.has(server)) admins.set(server, await server.login())
  return server.api('/api/notifications', { method: 'POST', json, token: admins.get(server)!, headers })
}

describe('push endpoint addresses', () => {
  it('stores only https endpoints on public hosts unless MOMENTUM_PUSH_ALLOW_PRIVATE is set', async () => {
    const alice = await strict.userWith('alice', [])
    const keys = push.subscribe().json.keys
    const refused = [
      'http://push.example.com/send/1',
      'https://localhost/send/1',
      'https://push.localhost/send/1',
      'https://printer.local/send/1',
      'https://127.0.0.1/send/1',
      'https://0x7f.1/send/1',
      'https://2130706433/send/1',
      'https://10.1.2.3/send/1',
      'https://172.20.0.1/send/1',
      'https://192.168.1.1/send/1',
      'https://169.254.169.254/latest/meta-data',
      'https://100.64.0.1/send/1',
      'https://0.0.0.0/send/1',
      'https://[::1]/send/1',
      'https://[::ffff:127.0.0.1]/send/1',
      'https://[fe80::1]/send/1',
      'https://[fd00::1]/send/1',
      'https://user:pw@push.example.com/send/1',
    ]
    for (const endpoint of refused) {
      const res = await subscribe(strict, alice, { endpoint, keys })
      expect(res.status, endpoint).toBe(400)
      expect((res.body as { message: string }).message).toBe(PWA_TEXT.subscriptionEndpointRefused)
    }
    // A real push service's address is stored (no lookup at subscribe time).
    const ok = await subscribe(strict, alice, { endpoint: 'https://fcm.googleapis.com/fcm/send/abc', keys })
    expect(ok.status).toBe(200)
    // The local endpoint passes only with the setting on.
    const sub = push.subscribe().json
    expect((await subscribe(strict, alice, sub)).status).toBe(400)
    expect((await subscribe(local, await local.userWith('alice', []), sub)).status).toBe(200)
  })

  it('judges addresses by range, IPv4-mapped IPv6 as IPv4', () => {
    for (const ip of [
      '127.0.0.1',
      '10.0.0.1',
      '192.168.0.1',
      '169.254.1.1',
      '::1',
      '::ffff:7f00:1',
      'fc00::1',
      'x',
    ])
      expect(isPrivateAddress(ip), ip).toBe(true)
    for (const ip of ['8.8.8.8', '142.250.1.1', '2a00:1450:4001::1', '::ffff:8.8.8.8'])
      expect(isPrivateAddress(ip), ip).toBe(false)
    expect(endpointAllowed('http://127.0.0.1:9/push/x', true)).toBe(true)
    expect(configFromEnv({ MOMENTUM_PUSH_ALLOW_PRIVATE: 'true' }).pushAllowPrivate).toBe(true)
    expect(configFromEnv({}).pushAllowPrivate).toBe(false)
  })

  it('refuses at send time an endpoint that resolves to (or is) a private address', async () => {
    // Stored before the rule, or a public name that now resolves to loopback: written straight to the store.
    const real = push.subscribe().json
    const byName = {
      ...real,
      endpoint: real.endpoint.replace('127.0.0.1', 'localhost').replace('http:', 'https:'),
    }
    for (const [user, sub] of [
      ['mallory', real],
      ['trudy', byName],
    ] as const) {
      await strict.userWith(user, [])
      await strict.services.store.write(
        { op: 'put', collection: SUBSCRIPTIONS, id: subscriptionId(sub.endpoint), body: { user, ...sub } },
        { user: null },
      )
      const res = await notify(strict, { to: [user], title: 'probe' })
      const result = (res.body as { results: Array<{ status: string; errors?: string[] }> }).results[0]!
      expect(result.status, user).toBe('failed')
      expect(result.errors?.[0], user).toMatch(/^push endpoint refused: /)
    }
    expect(push.received).toHaveLength(0)
  })
})

describe('push endpoint ownership', () => {
  it('does not let another user re-bind an endpoint; its owner may refresh it', async () => {
    const owner = await local.userWith('owner', [])
    const thief = await local.userWith('thief', [])
    const sub = push.subscribe()
    expect((await subscribe(local, owner, sub.json)).status).toBe(200)
    const taken = await subscribe(local, thief, sub.json)
    expect(taken.status).toBe(409)
    expect(taken.body).toEqual({ error: 'conflict', message: PWA_TEXT.subscriptionTaken })

    const res = await notify(local, { to: ['owner', 'thief'], title: 'still mine' })
    expect((res.body as { results: unknown[] }).results).toEqual([
      expect.objectContaining({ to: 'owner', status: 'sent', sent: 1 }),
      expect.objectContaining({ to: 'thief', status: 'no_subscription' }),
    ])
    // The owner re-subscribing the same browser (new keys) is fine.
    const fresh = push.subscribe().json.keys
    expect((await subscribe(local, owner, { ...sub.json, keys: fresh })).status).toBe(200)
    // Once the owner removed it (logout), the next user of that browser may take it.
    await local.api('/api/notifications', { method: 'DELETE', json: sub.json, token: owner })
    expect((await subscribe(local, thief, sub.json)).status).toBe(200)
  })

  it('sends once for concurrent repeats of one Idempotency-Key', async () => {
    const token = await local.userWith('once', [])
    const sub = push.subscribe()
    await subscribe(local, token, sub.json)
    const headers = { 'idempotency-key': 'notify-once-concurrent' }
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => notify(local, { to: ['once'], title: 'exactly once' }, headers)),
    )
    for (const a of answers) {
      expect(a.status).toBe(200)
      expect(a.body).toEqual(answers[0]!.body)
    }
    expect(answers.filter((a) => a.headers.get('idempotent-replayed') === 'true')).toHaveLength(5)
    expect(push.received.filter((r) => r.subscription === sub.id)).toHaveLength(1)
  })
})
