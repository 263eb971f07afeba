/**
 * Sending e-mail, SMS and call invitations (issue 13, docs/operating/messages.md) against real peers: the SMTP
 * server (smtp-server), an HTTP peer speaking Twilio's Messages API, and the Web Push endpoint that
 * decrypts what it receives. Records, rendering per recipient, the synced history and Idempotency-Key
 * replays; refusals are in messages-refusals.test.ts, the queue in messages-queue.test.ts.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { CALL_EVENT, type CallInvitation } from '../../src/shared/messaging'
import { MESSAGING_TEXT } from '../../src/shared/texts'
import { type MessageFixture, startMessageFixture } from '../helpers/message-fixture'
import { settled } from '../helpers/messages'
import type { PushEndpoint } from '../helpers/push-endpoint'
import type { TestServer } from '../helpers/server'
import type { SmtpPeer } from '../helpers/smtp'
import type { TwilioPeer } from '../helpers/twilio-peer'
import { openSocket } from './socket-client'

let fx: MessageFixture
let server: TestServer
let smtp: SmtpPeer
let twilio: TwilioPeer
let push: PushEndpoint
let admin: string

beforeAll(async () => {
  fx = await startMessageFixture()
  ;({ server, smtp, twilio, push, admin } = fx)
})
afterAll(async () => {
  await fx?.close()
})
beforeEach(() => {
  smtp.mails.length = 0
  twilio.messages.length = 0
  twilio.failWith = null
})

const post = (path: string, json: unknown, token = admin, headers: Record<string, string> = {}) =>
  server.api(path, { method: 'POST', json, token, headers })

interface SendAnswer {
  batch: string
  messages: Array<{ _id: string; to: string; user: string | null; group: string | null; status: string }>
  skipped: Array<{ user: string; reason: string }>
}

describe('POST /api/email', () => {
  it('sends a template to a group: one rendered mail per member, each with the bcc', async () => {
    const res = await post('/api/email', {
      to: 'group:team',
      bcc: 'audit@example.com',
      template: 'welcome',
      data: { product: 'Momentum & Co' },
    })
    expect(res.status).toBe(202)
    const answer = res.body as SendAnswer
    expect(answer.messages.map((m) => m.to).sort()).toEqual(['ann@example.com', 'bob@example.com'])
    expect(answer.messages.every((m) => m.group === 'team' && m.status === 'queued')).toBe(true)
    expect(answer.skipped).toEqual([
      { user: 'cy', group: 'team', reason: MESSAGING_TEXT.noAddress('cy', 'email') },
    ])

    const docs = await settled(server.services.store, { batch: answer.batch }, 2)
    expect(docs.map((d) => d.status)).toEqual(['sent', 'sent'])
    expect(docs.every((d) => d.attempts === 1 && typeof d.providerId === 'string')).toBe(true)

    for (const user of ['ann', 'bob']) {
      const mail = await smtp.waitForMail((m) => m.to.includes(`${user}@example.com`))
      // One envelope per member, carrying the member and the bcc, and nobody else.
      expect(mail.to.sort()).toEqual(['audit@example.com', `${user}@example.com`].sort())
      expect(mail.from).toBe('messages@momentum.test')
      expect(mail.decoded).toContain('Subject: Welcome to Momentum & Co')
      // Text parts are not HTML-escaped; the HTML part escapes the data and keeps the layout.
      expect(mail.decoded).toContain(`Hello ${user}, welcome to Momentum & Co`)
      expect(mail.decoded).toMatch(
        new RegExp(`<div class=(?:3D)?"frame"><p>Hello ${user}, Momentum &amp; Co & you</p></div>`),
      )
      // Bcc never shows in the headers the recipient sees.
      expect(mail.decoded).not.toContain('audit@example.com')
    }
    expect(smtp.mails).toHaveLength(2)
    // The record holds what was rendered for its recipient.
    const ann = docs.find((d) => d.user === 'ann')!
    expect(ann.content).toMatchObject({
      subject: 'Welcome to Momentum & Co',
      text: 'Hello ann, welcome to Momentum & Co',
    })
    expect(ann).toMatchObject({
      channel: 'email',
      template: 'welcome',
      bcc: ['audit@example.com'],
      sentBy: 'admin',
    })
  })

  it('records are in the synced history: the change feed and GET /api/messages', async () => {
    const res = await post('/api/email', { to: 'zed@example.com', subject: 'Plain', text: 'Just text' })
    expect(res.status).toBe(202)
    const id = (res.body as SendAnswer).messages[0]!._id
    await settled(server.services.store, { _id: id })
    const one = await server.api(`/api/messages/${id}`, { token: admin })
    expect(one.body).toMatchObject({
      _id: id,
      status: 'sent',
      to: 'zed@example.com',
      content: { subject: 'Plain' },
    })
    const list = await server.api(`/api/messages?filter=${encodeURIComponent(JSON.stringify({ _id: id }))}`, {
      token: admin,
    })
    expect((list.body as unknown[]).length).toBe(1)
    const sync = await server.api('/api/sync?cursor=0&limit=2000', { token: admin })
    const changes = (
      sync.body as { changes: Array<{ collection: string; id: string; doc: { status: string } | null }> }
    ).changes
    const mine = changes.filter((c) => c.collection === 'messages' && c.id === id)
    expect(mine[0]!.doc!.status).toBe('queued')
    expect(mine.at(-1)!.doc!.status).toBe('sent')
  })

  it('an Idempotency-Key replay answers the first records and sends nothing again', async () => {
    const json = { to: ['ann', 'solo@example.com'], subject: 'Once', text: 'Only once' }
    const headers = { 'idempotency-key': 'email-once-1' }
    const first = await post('/api/email', json, admin, headers)
    expect(first.status).toBe(202)
    const [again, third] = await Promise.all([
      post('/api/email', json, admin, headers),
      post('/api/email', json, admin, headers),
    ])
    for (const r of [again, third]) {
      expect(r.status).toBe(202)
      expect(r.headers.get('idempotent-replayed')).toBe('true')
      expect((r.body as SendAnswer).messages.map((m) => m._id)).toEqual(
        (first.body as SendAnswer).messages.map((m) => m._id),
      )
    }
    const docs = await settled(server.services.store, { 'content.subject': 'Once' }, 2)
    expect(docs).toHaveLength(2)
    await smtp.waitForMail((m) => m.to.includes('solo@example.com'))
    expect(smtp.mails.filter((m) => m.decoded.includes('Subject: Once'))).toHaveLength(2)
    // The same key for another request is refused.
    const other = await post('/api/email', { ...json, text: 'Different' }, admin, headers)
    expect(other.status).toBe(400)
  })
})

describe('POST /api/sms', () => {
  it('reaches the Twilio peer: numbers, users by id, and a template', async () => {
    const res = await post('/api/sms', {
      to: ['+15557654321', 'bob'],
      template: 'code',
      data: { code: '4711' },
    })
    expect(res.status).toBe(202)
    const answer = res.body as SendAnswer
    // bob's number is normalised to E.164.
    expect(answer.messages.map((m) => m.to)).toEqual(['+15557654321', '+15550000002'])
    const docs = await settled(server.services.store, { batch: answer.batch }, 2)
    const received = await twilio.waitForMessages(2)
    expect(received.map((m) => m.to).sort()).toEqual(['+15550000002', '+15557654321'])
    for (const m of received) {
      expect(m.from).toBe('+15550001111')
      // Text parts are not HTML-escaped: an SMS shows "&", not "&amp;".
      expect(m.body).toBe('Your code is 4711 & it expires soon')
    }
    expect(docs.map((d) => d.status)).toEqual(['sent', 'sent'])
    expect(docs.map((d) => d.providerId).sort()).toEqual(received.map((m) => m.sid).sort())
  })

  it('sends free text to a group, skipping members without a phone number', async () => {
    const res = await post('/api/sms', { to: 'team', text: 'Standup in 5' })
    expect(res.status).toBe(202)
    expect((res.body as SendAnswer).skipped.map((s) => s.user)).toEqual(['cy'])
    const received = await twilio.waitForMessages(2)
    expect(received.map((m) => m.body)).toEqual(['Standup in 5', 'Standup in 5'])
  })
})

describe('POST /api/call', () => {
  it('rings the recipient: a push to their subscription and a websocket event to their console', async () => {
    const token = await server.userWith('callee', [])
    const sub = push.subscribe()
    expect((await server.api('/api/notifications', { method: 'PATCH', json: sub.json, token })).status).toBe(
      200,
    )
    const socket = await openSocket(server.url, token)
    try {
      await socket.next((m) => m.event === 'connected')
      const res = await post('/api/call', { to: 'callee', room: 'daily-standup' })
      expect(res.status).toBe(202)
      const ring = await socket.next((m) => m.event === CALL_EVENT)
      expect(ring.payload).toMatchObject({
        room: 'daily-standup',
        from: 'admin',
        // The display name, not the id (issue 36 #13): "Administrator invites you to a call".
        fromName: 'Administrator',
        url: '/ui/video/daily-standup',
      } satisfies Partial<CallInvitation>)
      const [doc] = await settled(server.services.store, { batch: (res.body as SendAnswer).batch })
      expect(doc).toMatchObject({ channel: 'call', to: 'callee', status: 'sent' })
      const received = push.received.filter((p) => p.subscription === sub.id)
      expect(received).toHaveLength(1)
      expect(received[0]!.payload).toMatchObject({
        type: 'notification',
        title: MESSAGING_TEXT.callTitle('Administrator'),
        url: '/ui/video/daily-standup',
      })
    } finally {
      await socket.close()
    }
  })

  it('fails at once, with the reason, for a user with no push subscription', async () => {
    const res = await post('/api/call', { to: 'ann', room: 'r1' })
    expect(res.status).toBe(202)
    const [doc] = await settled(server.services.store, { batch: (res.body as SendAnswer).batch })
    expect(doc).toMatchObject({ status: 'failed', attempts: 1, lastError: MESSAGING_TEXT.noSubscription })
  })
})
