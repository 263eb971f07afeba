/**
 * What POST /api/email, /api/sms and /api/call refuse (docs/operating/messages.md): permission keys
 * `messages/{channel}:c`, `messages:r` for the history and `messages/{id}:u` for resend, a template
 * the sender may not read, and every kind of bad recipient or content, each with a clear 400 and no
 * record written. Same setting as messages.test.ts (tests/helpers/message-fixture.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MESSAGING_TEXT } from '../../src/shared/texts'
import { type MessageFixture, startMessageFixture } from '../helpers/message-fixture'
import { records } from '../helpers/messages'
import type { TestServer } from '../helpers/server'

let fx: MessageFixture
let server: TestServer
let admin: string

beforeAll(async () => {
  fx = await startMessageFixture()
  ;({ server, admin } = fx)
})
afterAll(async () => {
  await fx?.close()
})

const post = (path: string, json: unknown, token = admin) => server.api(path, { method: 'POST', json, token })

describe('permissions', () => {
  it('sending needs messages/{channel}:c; the history needs messages:r; resend needs :u', async () => {
    const mailer = await server.userWith('mailer', ['messages/email:c'])
    const reader = await server.userWith('reader', ['messages:r'])
    const all = await server.userWith('sender', ['messages:*'])
    const mail = { to: 'x@example.com', subject: 'S', text: 'T' }
    expect((await post('/api/email', mail, mailer)).status).toBe(202)
    expect((await post('/api/sms', { to: '+15550000009', text: 'x' }, mailer)).status).toBe(403)
    expect((await post('/api/call', { to: 'ann', room: 'r' }, mailer)).status).toBe(403)
    expect((await post('/api/email', mail, reader)).status).toBe(403)
    expect((await post('/api/sms', { to: '+15550000009', text: 'x' }, all)).status).toBe(202)
    expect((await server.api('/api/email', { method: 'POST', json: mail })).status).toBe(401)
    expect((await server.api('/api/messages', { token: mailer })).status).toBe(403)
    expect((await server.api('/api/messages', { token: reader })).status).toBe(200)
    const [some] = await records(server.services.store)
    expect((await post(`/api/messages/${some!._id}/resend`, {}, reader)).status).toBe(403)
  })

  it('a template the sender may not read is refused, and nothing is recorded', async () => {
    const mailer = await server.userWith('mailer2', ['messages/email:c'])
    const before = (await records(server.services.store)).length
    const res = await post('/api/email', { to: 'x@example.com', template: 'welcome', data: {} }, mailer)
    expect(res.status).toBe(400)
    expect((res.body as { message: string }).message).toBe(MESSAGING_TEXT.templateNotFound('welcome'))
    expect(await records(server.services.store)).toHaveLength(before)
  })
})

describe('bad requests', () => {
  it('answers a clear 400 and records nothing', async () => {
    const before = (await records(server.services.store)).length
    const cases: Array<[string, unknown, string]> = [
      [
        '/api/email',
        { to: 'not-an-address@', subject: 's', text: 't' },
        MESSAGING_TEXT.emailInvalid('not-an-address@'),
      ],
      ['/api/email', { to: 'a@b', subject: 's', text: 't' }, MESSAGING_TEXT.emailInvalid('a@b')],
      [
        '/api/email',
        { to: '+15550000001', subject: 's', text: 't' },
        MESSAGING_TEXT.notForChannel('+15550000001', 'email'),
      ],
      [
        '/api/email',
        { to: 'nobody-here', subject: 's', text: 't' },
        MESSAGING_TEXT.recipientInvalid('nobody-here'),
      ],
      ['/api/email', { to: 'cy', subject: 's', text: 't' }, MESSAGING_TEXT.noAddress('cy', 'email')],
      ['/api/email', { to: [], subject: 's', text: 't' }, MESSAGING_TEXT.toMissing(500)],
      ['/api/email', { to: 'ann', text: 't' }, MESSAGING_TEXT.subjectMissing],
      ['/api/email', { to: 'ann', subject: 's' }, MESSAGING_TEXT.bodyMissing],
      [
        '/api/email',
        { to: 'ann', subject: 's', text: 't', bcc: 'nope' },
        MESSAGING_TEXT.emailInvalid('nope'),
      ],
      [
        '/api/email',
        { to: 'ann', template: 'code' },
        MESSAGING_TEXT.templateWrongKind('code', 'sms', 'email'),
      ],
      ['/api/sms', { to: '+12', text: 'x' }, MESSAGING_TEXT.phoneInvalid('+12')],
      ['/api/sms', { to: '+1555abc0000', text: 'x' }, MESSAGING_TEXT.phoneInvalid('+1555abc0000')],
      [
        '/api/sms',
        { to: 'ann@example.com', text: 'x' },
        MESSAGING_TEXT.notForChannel('ann@example.com', 'sms'),
      ],
      ['/api/sms', { to: '+15550000001', text: 'x'.repeat(1601) }, MESSAGING_TEXT.smsTooLong(1600)],
      ['/api/sms', { to: '+15550000001' }, MESSAGING_TEXT.smsTextMissing],
      ['/api/call', { to: 'ann', room: 'no spaces' }, MESSAGING_TEXT.roomMissing],
      ['/api/call', { to: '+15550000001', room: 'r' }, MESSAGING_TEXT.notForChannel('+15550000001', 'call')],
    ]
    for (const [path, json, message] of cases) {
      const res = await post(path, json)
      expect({ path, json, status: res.status, message: (res.body as { message?: string }).message }).toEqual(
        { path, json, status: 400, message },
      )
    }
    expect(await records(server.services.store)).toHaveLength(before)
  })
})
