/**
 * /api/settings public reads and server-managed ids, and /api/tools (healthcheck, dummy-file), against
 * the real server.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import type { Doc } from '../../src/server/store/types'
import {
  DUMMY_FILE_MAX_BYTES,
  PUBLIC_SETTING_IDS,
  SPEED_TEST_FIRST_BYTES,
  SPEED_TEST_SECOND_BYTES,
} from '../../src/shared/constants'
import { COLLECTION_TEXT, requiresOneOf, SERVER_TEXT } from '../../src/shared/texts'
import { suiteServer } from '../helpers/suite-server'

let nobody: string

const server = suiteServer()
beforeAll(async () => {
  nobody = await server.userWith('nobody', null)
  const { store } = server.services
  for (const [id, value] of [
    ['stripe_token', 'sk_live_secret'],
    ['webrtc_key', 'turn-secret'],
    ['push_public_key', 'BPublicKey'],
  ] as const) {
    await store.write({ op: 'put', collection: 'settings', id, body: { value } }, { user: null })
  }
})

const ids = (body: unknown) => (body as Doc[]).map((d) => d._id).sort()

describe('settings', () => {
  it('lists only public settings to callers without settings:r, logged in or not', async () => {
    for (const token of [undefined, nobody]) {
      const res = await server.api('/api/settings', { token })
      expect(res.status).toBe(200)
      const seen = ids(res.body)
      expect(seen.every((id) => (PUBLIC_SETTING_IDS as readonly string[]).includes(id))).toBe(true)
      expect(seen).toContain('title')
      expect(seen).toContain('push_public_key')
      expect(res.headers.get('x-total-count')).toBe(String(seen.length))
      expect(res.text).not.toContain('sk_live_secret')
    }
  })

  it('lists every setting to callers with settings:r', async () => {
    const res = await server.api('/api/settings', { token: server.admin })
    expect(ids(res.body)).toEqual(expect.arrayContaining(['stripe_token', 'webrtc_key', 'title']))
  })

  it('pages and filters the public list correctly', async () => {
    const res = await server.api('/api/settings?sort=-_id&limit=2&offset=1')
    const all = ids((await server.api('/api/settings')).body).reverse()
    expect((res.body as Doc[]).map((d) => d._id)).toEqual(all.slice(1, 3))
    expect(res.headers.get('x-total-count')).toBe(String(all.length))
    const filtered = await server.api(
      `/api/settings?filter=${encodeURIComponent('{"value":"sk_live_secret"}')}`,
    )
    expect(filtered.body).toEqual([])
    expect(filtered.headers.get('x-total-count')).toBe('0')
  })

  it('reads a public setting without login, a private one only with settings:r', async () => {
    const title = await server.api('/api/settings/title')
    expect(title.status).toBe(200)
    expect(title.body).toMatchObject({ _id: 'title', value: 'Momentum' })

    const anonymous = await server.api('/api/settings/stripe_token')
    expect(anonymous.status).toBe(401)
    expect(anonymous.body).toEqual({ error: 'unauthorized', message: SERVER_TEXT.notAuthenticated })
    const noPerm = await server.api('/api/settings/stripe_token', { token: nobody })
    expect(noPerm.status).toBe(403)
    expect(noPerm.body).toMatchObject({ message: requiresOneOf(['settings/stripe_token:r']) })
    expect((await server.api('/api/settings/stripe_token', { token: server.admin })).body).toMatchObject({
      value: 'sk_live_secret',
    })
    // A missing private id must not reveal whether it exists.
    expect((await server.api('/api/settings/no-such-setting')).status).toBe(401)
  })

  it('needs settings permissions to write, public ids included', async () => {
    const res = await server.api('/api/settings/title', { method: 'PATCH', json: { value: 'Hacked' } })
    expect(res.status).toBe(401)
    const res2 = await server.api('/api/settings/title', {
      method: 'PATCH',
      json: { value: 'Hacked' },
      token: nobody,
    })
    expect(res2.status).toBe(403)
    const ok = await server.api('/api/settings/title', {
      method: 'PATCH',
      json: { value: 'Console' },
      token: server.admin,
    })
    expect(ok.status).toBe(200)
    expect((await server.api('/api/settings/title')).body).toMatchObject({ value: 'Console' })
  })

  it('keeps push_public_key read-only: the server owns the VAPID pair', async () => {
    const before = await server.services.store.get('settings', 'push_public_key')
    for (const [method, path, json] of [
      ['PATCH', '/api/settings/push_public_key', { value: 'mine' }],
      ['DELETE', '/api/settings/push_public_key', undefined],
      ['POST', '/api/settings', { _id: 'push_public_key', value: 'mine' }],
    ] as const) {
      const res = await server.api(path, { method, json, token: server.admin })
      expect(res.status, method).toBe(405)
      expect(res.body).toMatchObject({ message: COLLECTION_TEXT.settingReadOnly })
    }
    expect(await server.services.store.get('settings', 'push_public_key')).toEqual(before)
  })
})

describe('tools', () => {
  it('healthcheck is public and reports version, store and time', async () => {
    const res = await server.api('/api/tools/healthcheck')
    expect(res.status).toBe(200)
    const body = res.body as { ok: boolean; version: string; store: string; time: string }
    expect(body).toMatchObject({ ok: true, store: 'sqlite' })
    expect(body.version).toMatch(/^\d+\.\d+\.\d+/)
    expect(Number.isNaN(Date.parse(body.time))).toBe(false)
  })

  it('dummy-file streams exactly the bytes asked for, uncached, to logged-in users', async () => {
    for (const size of [0, 1, 65_537, SPEED_TEST_FIRST_BYTES, SPEED_TEST_SECOND_BYTES]) {
      const res = await fetch(`${server.url}/api/tools/dummy-file?size=${size}`, {
        headers: { authorization: `Bearer ${nobody}` },
      })
      expect(res.status).toBe(200)
      expect(res.headers.get('cache-control')).toBe('no-store')
      expect(res.headers.get('content-length')).toBe(String(size))
      expect((await res.arrayBuffer()).byteLength).toBe(size)
    }
    const fallback = await fetch(`${server.url}/api/tools/dummy-file`, {
      headers: { authorization: `Bearer ${nobody}` },
    })
    expect((await fallback.arrayBuffer()).byteLength).toBe(SPEED_TEST_FIRST_BYTES)
    expect((await server.api('/api/tools/dummy-file?size=10')).status).toBe(401)
  })

  it('dummy-file refuses sizes that are not whole numbers up to the cap', async () => {
    for (const size of ['-1', 'abc', '1.5', '1e6', String(DUMMY_FILE_MAX_BYTES + 1), '99999999999']) {
      const res = await server.api(`/api/tools/dummy-file?size=${size}`, { token: nobody })
      expect(res.status, size).toBe(400)
      expect(res.body).toEqual({
        error: 'bad_request',
        message: COLLECTION_TEXT.dummySize(DUMMY_FILE_MAX_BYTES),
      })
    }
    const twice = await server.api('/api/tools/dummy-file?size=1&size=2', { token: nobody })
    expect(twice.status).toBe(400)
  })
})

describe('CORS for the dev server (SPEC §7: on port 5173 the console calls {host}:8080)', () => {
  it('allows the dev origin with credentials and refuses others', async () => {
    const dev = await fetch(`${server.url}/api/tools/healthcheck`, {
      headers: { origin: 'http://127.0.0.1:5173' },
    })
    expect(dev.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:5173')
    expect(dev.headers.get('access-control-allow-credentials')).toBe('true')
    const other = await fetch(`${server.url}/api/tools/healthcheck`, {
      headers: { origin: 'https://evil.example' },
    })
    expect(other.headers.get('access-control-allow-origin')).toBeNull()
  })
})
