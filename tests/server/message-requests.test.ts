/**
 * The synced `message-requests` collection (docs/using/messages.md): the console's one way to send,
 * replayed by the sync outbox as POST /api/message-requests with the client's `_id`. A create queues
 * the per-recipient records exactly as POST /api/email|sms do; a repeat (same key, or same id with
 * another key, or two at once) queues nothing twice; the channel's send permission is required.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { MESSAGE_REQUESTS_COLLECTION } from '../../src/shared/messaging'
import { MESSAGING_TEXT } from '../../src/shared/texts'
import { type MessageFixture, startMessageFixture } from '../helpers/message-fixture'
import { records, settled } from '../helpers/messages'
import type { TestServer } from '../helpers/server'
import type { SmtpPeer } from '../helpers/smtp'
import type { TwilioPeer } from '../helpers/twilio-peer'

let fx: MessageFixture
let server: TestServer
let smtp: SmtpPeer
let twilio: TwilioPeer
let admin: string
const PATH = `/api/${MESSAGE_REQUESTS_COLLECTION}`

beforeAll(async () => {
  fx = await startMessageFixture()
  ;({ server, smtp, twilio, admin } = fx)
})
afterAll(async () => {
  await fx?.close()
})
beforeEach(() => {
  smtp.mails.length = 0
  twilio.messages.length = 0
})

const post = (json: unknown, token = admin, headers: Record<string, string> = {}) =>
  server.api(PATH, { method: 'POST', json, token, headers })

describe('POST /api/message-requests', () => {
  it('queues one record per group member, batch = the request id, and the request is a synced document', async () => {
    const res = await post(
      {
        _id: 'req-email-1',
        channel: 'email',
        to: 'group:team',
        bcc: 'audit@example.com',
        template: 'welcome',
        data: { product: 'X' },
      },
      admin,
      { 'idempotency-key': 'k-email-1' },
    )
    expect(res.status).toBe(201)
    const doc = res.body as Record<string, unknown>
    expect(doc).toMatchObject({ _id: 'req-email-1', channel: 'email', batch: 'req-email-1', count: 2 })
    expect((doc.skipped as unknown[]).length).toBe(1)
    const docs = await settled(server.services.store, { batch: 'req-email-1' }, 2)
    expect(docs.map((d) => d.to).sort()).toEqual(['ann@example.com', 'bob@example.com'])
    expect(docs.every((d) => d.status === 'sent')).toBe(true)
    const mail = await smtp.waitForMail((m) => m.to.includes('ann@example.com'))
    expect(mail.to.sort()).toEqual(['ann@example.com', 'audit@example.com'])
    expect(await server.services.store.get(MESSAGE_REQUESTS_COLLECTION, 'req-email-1')).toMatchObject({
      count: 2,
    })
  })

  it('a repeated create queues nothing twice: same key, another key, and two at once', async () => {
    const body = { _id: 'req-sms-1', channel: 'sms', to: '+15550009999', text: 'Your code is 1' }
    const first = await post(body, admin, { 'idempotency-key': 'k-sms-1' })
    expect(first.status).toBe(201)
    const again = await post(body, admin, { 'idempotency-key': 'k-sms-1' })
    expect(again.status).toBe(201)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    // The outbox of another tab or a lost idempotency record: same id, another key.
    const other = await post(body, admin, { 'idempotency-key': 'k-sms-1b' })
    expect(other.status).toBe(200)
    expect((other.body as { _id: string })._id).toBe('req-sms-1')
    // Two creates of a new id at once.
    const racing = { ...body, _id: 'req-sms-2' }
    const both = await Promise.all([
      post(racing, admin, { 'idempotency-key': 'k-race-a' }),
      post(racing, admin, { 'idempotency-key': 'k-race-b' }),
    ])
    expect(both.map((r) => r.status).sort()).toEqual([200, 201])
    await settled(server.services.store, { batch: 'req-sms-2' }, 1)
    expect(await records(server.services.store, { batch: 'req-sms-1' })).toHaveLength(1)
    expect(await records(server.services.store, { batch: 'req-sms-2' })).toHaveLength(1)
    await twilio.waitForMessages(2)
    expect(twilio.messages.filter((m) => m.to === '+15550009999')).toHaveLength(2)
  })

  it('checks the body as POST /api/{channel} does, and writes nothing when refused', async () => {
    const bad = await post({ _id: 'req-bad-1', channel: 'sms', to: '+12', text: 'x' })
    expect(bad.status).toBe(400)
    expect(JSON.stringify(bad.body)).toContain(MESSAGING_TEXT.phoneInvalid('+12'))
    const channel = await post({ _id: 'req-bad-2', channel: 'fax', to: 'ann', text: 'x' })
    expect(channel.status).toBe(400)
    expect(JSON.stringify(channel.body)).toContain(MESSAGING_TEXT.channelInvalid)
    const template = await post({ _id: 'req-bad-3', channel: 'email', to: 'ann', template: 'nope' })
    expect(template.status).toBe(400)
    for (const id of ['req-bad-1', 'req-bad-2', 'req-bad-3']) {
      expect(await server.services.store.get(MESSAGE_REQUESTS_COLLECTION, id)).toBeNull()
      expect(await records(server.services.store, { batch: id })).toHaveLength(0)
    }
  })

  it("needs the channel's send permission, and another user's id is a conflict", async () => {
    const token = await server.userWith('sms-only', ['messages/sms:c'])
    const email = await post(
      { _id: 'req-perm-1', channel: 'email', to: 'ann@example.com', subject: 's', text: 't' },
      token,
    )
    expect(email.status).toBe(403)
    expect(await records(server.services.store, { batch: 'req-perm-1' })).toHaveLength(0)
    const sms = await post({ _id: 'req-perm-2', channel: 'sms', to: '+15550008888', text: 'hi' }, token)
    expect(sms.status).toBe(201)
    const taken = await post({ _id: 'req-perm-2', channel: 'sms', to: '+15550008888', text: 'hi' })
    expect(taken.status).toBe(409)
    expect(await records(server.services.store, { batch: 'req-perm-2' })).toHaveLength(1)
  })
})
