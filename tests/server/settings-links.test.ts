/**
 * The footer's legal links (SPEC §3 Site configuration: privacy_policy_url, terms_of_service_url) as
 * settings on the real server: public to read (the login page and every visitor's footer show them),
 * written only with settings permissions, and only as http(s) addresses, since they become links.
 */
import { describe, expect, it } from 'vitest'
import { COLLECTION_TEXT } from '../../src/shared/texts'
import { suiteServer } from '../helpers/suite-server'

const server = suiteServer()

describe('legal link settings', () => {
  it('are saved by an admin and read by anyone, logged in or not', async () => {
    const created = await server.api('/api/settings', {
      json: { _id: 'terms_of_service_url', value: 'https://example.com/terms' },
      token: server.admin,
    })
    expect(created.status).toBe(201)
    const second = await server.api('/api/settings', {
      json: { _id: 'privacy_policy_url', value: 'https://example.com/privacy' },
      token: server.admin,
    })
    expect(second.status).toBe(201)
    // Without settings permissions nobody may change them, though anyone may read them.
    const anonymous = await server.api('/api/settings/privacy_policy_url', {
      method: 'PATCH',
      json: { value: 'https://evil.example/privacy' },
    })
    expect(anonymous.status).toBe(401)
    const list = await server.api('/api/settings')
    expect(list.status).toBe(200)
    const values = Object.fromEntries(
      (list.body as { _id: string; value: unknown }[]).map((s) => [s._id, s.value]),
    )
    expect(values).toMatchObject({
      terms_of_service_url: 'https://example.com/terms',
      privacy_policy_url: 'https://example.com/privacy',
    })
    expect((await server.api('/api/settings/terms_of_service_url')).status).toBe(200)
  })

  it('refuse anything but an http(s) address (empty clears the link), and store nothing then', async () => {
    for (const value of ['javascript:alert(1)', 'example.com/terms', 42, { href: 'https://x.y' }]) {
      const res = await server.api('/api/settings/terms_of_service_url', {
        method: 'PATCH',
        json: { value },
        token: server.admin,
      })
      expect(res.status, JSON.stringify(value)).toBe(400)
      expect(res.body).toMatchObject({
        error: 'bad_request',
        message: COLLECTION_TEXT.settingLinkInvalid('terms_of_service_url'),
      })
    }
    const bad = await server.api('/api/settings', {
      json: { _id: 'privacy_policy_url', value: 'data:text/html,hi' },
      token: server.admin,
    })
    expect(bad.status).toBe(400)
    expect((await server.api('/api/settings/terms_of_service_url')).body).toMatchObject({
      value: 'https://example.com/terms',
    })
    const cleared = await server.api('/api/settings/terms_of_service_url', {
      method: 'PATCH',
      json: { value: '' },
      token: server.admin,
    })
    expect(cleared.status).toBe(200)
  })
})
