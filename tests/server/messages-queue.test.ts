/**
 * The message queue (docs/operating/messages.md "Queue"): retries with backoff until a failing provider marks
 * the record failed with the provider's own error, resend after the provider recovers, and a server
 * stopped mid-send whose successor on the same data dir delivers every message exactly once. Real
 * peers: the Twilio-speaking HTTP peer and smtp-server; short retry constants through messageTiming.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startServer } from '../../src/server/server'
import { MESSAGING_TEXT } from '../../src/shared/texts'
import { records, settled, until } from '../helpers/messages'
import { ADMIN_PASSWORD, startTestServer, testConfig } from '../helpers/server'
import { type SmtpPeer, startSmtpPeer } from '../helpers/smtp'
import { suiteServer } from '../helpers/suite-server'
import { startTwilioPeer, type TwilioPeer } from '../helpers/twilio-peer'

const timing = { retryBaseMs: 20, maxAttempts: 3, tickMs: 20 }

let twilio: TwilioPeer
let smtp: SmtpPeer

beforeAll(async () => {
  twilio = await startTwilioPeer()
  smtp = await startSmtpPeer()
})
afterAll(async () => {
  await twilio?.close()
  await smtp?.close()
})
/** The SMS gateway is the local Twilio peer; the queue's retries are quick. */
const smsConfig = () => ({
  sms: { url: twilio.url, accountSid: twilio.accountSid, authToken: twilio.authToken, from: '+15550001111' },
  messageTiming: timing,
})
const server = suiteServer(() => ({
  smtpUrl: smtp.url,
  ...smsConfig(),
}))
beforeEach(() => {
  twilio.failWith = null
  twilio.messages.length = 0
  twilio.requests = 0
  smtp.rejectWith = null
})

const post = (p: string, json: unknown, headers: Record<string, string> = {}) =>
  server.api(p, { method: 'POST', json, token: server.admin, headers })
const idOf = (res: { body: unknown }) => (res.body as { messages: Array<{ _id: string }> }).messages[0]!._id

describe('retries, failure and resend', () => {
  it('an SMS provider answering 500 is retried, then the record fails with its error; resend succeeds', async () => {
    twilio.failWith = 500
    const res = await post('/api/sms', { to: '+15550000001', text: 'Try me' })
    expect(res.status).toBe(202)
    const id = idOf(res)
    const [failed] = await settled(server.services.store, { _id: id })
    expect(failed).toMatchObject({ status: 'failed', attempts: 3 })
    expect(failed!.lastError).toBe('SMS provider answered 500 (code 20500): Internal Server Error')
    expect(twilio.requests).toBe(3)
    expect(twilio.messages).toHaveLength(0)

    // A resend while it is not failed is refused; after the provider recovers it goes out once.
    twilio.failWith = null
    const headers = { 'idempotency-key': `resend-${id}` }
    const resent = await post(`/api/messages/${id}/resend`, {}, headers)
    expect(resent.status).toBe(200)
    expect(resent.body).toMatchObject({ _id: id, status: 'queued', attempts: 0, resent: 1 })
    const replay = await post(`/api/messages/${id}/resend`, {}, headers)
    expect(replay.headers.get('idempotent-replayed')).toBe('true')
    const [sent] = await settled(server.services.store, { _id: id })
    expect(sent).toMatchObject({ status: 'sent', attempts: 1, lastError: null })
    expect(twilio.messages.map((m) => m.body)).toEqual(['Try me'])
    const again = await post(`/api/messages/${id}/resend`, {})
    expect(again.status).toBe(409)
    expect((again.body as { message: string }).message).toBe(MESSAGING_TEXT.notFailed)
  })

  it('a permanent refusal (4xx) fails at once, without retries', async () => {
    twilio.failWith = 400
    const [doc] = await settled(server.services.store, {
      _id: idOf(await post('/api/sms', { to: '+15550000002', text: 'x' })),
    })
    expect(doc).toMatchObject({ status: 'failed', attempts: 1 })
    expect(twilio.requests).toBe(1)
  })

  it('an SMTP server refusing for now (451) is retried, then failed with its reply; resend succeeds', async () => {
    smtp.rejectWith = 451
    const id = idOf(await post('/api/email', { to: 'later@example.com', subject: 'Later', text: 'Body' }))
    const [failed] = await settled(server.services.store, { _id: id })
    expect(failed).toMatchObject({ status: 'failed', attempts: 3 })
    expect(failed!.lastError).toMatch(/451/)
    smtp.rejectWith = null
    expect((await post(`/api/messages/${id}/resend`, {})).status).toBe(200)
    const [sent] = await settled(server.services.store, { _id: id })
    expect(sent!.status).toBe('sent')
    expect(smtp.mails.filter((m) => m.to.includes('later@example.com'))).toHaveLength(1)
  })

  it('an SMTP server that is down fails the record with the connection error', async () => {
    const down = await startSmtpPeer()
    await down.close()
    const other = await startTestServer({ smtpUrl: down.url, messageTiming: timing })
    try {
      const res = await other.api('/api/email', {
        method: 'POST',
        token: await other.login(),
        json: { to: 'nobody@example.com', subject: 'S', text: 'T' },
      })
      const [doc] = await settled(other.services.store, { _id: idOf(res) })
      expect(doc).toMatchObject({ status: 'failed', attempts: 3 })
      expect(doc!.lastError).toMatch(/ECONNREFUSED/)
    } finally {
      await other.close()
    }
  })
})

describe('a restart mid-send', () => {
  it('delivers every message exactly once across a stop and a new server on the same data dir', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'momentum-queue-'))
    const config = testConfig(dataDir, smsConfig())
    const login = async (url: string) => {
      const res = await fetch(`${url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
      })
      return ((await res.json()) as { token: string }).token
    }
    try {
      const first = await startServer(config)
      const token = await login(first.url)
      // The provider takes the first message and does not answer yet: the server is mid-send.
      twilio.hold()
      const numbers = ['+15550000011', '+15550000012', '+15550000013']
      for (const to of numbers) {
        const res = await fetch(`${first.url}/api/sms`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ to, text: `restart ${to}` }),
        })
        expect(res.status).toBe(202)
      }
      await twilio.waitForRequests(1)
      // Stop it: the send in flight finishes (the provider answers now), nothing new is claimed.
      const stopping = first.close()
      twilio.release()
      await stopping
      expect(twilio.messages).toHaveLength(1)

      const second = await startServer(config)
      try {
        const docs = await until(
          () => records(second.services.store),
          (d) => d.length === 3 && d.every((x) => x.status === 'sent'),
          'all three sent',
        )
        expect(docs.map((d) => d.attempts)).toEqual([1, 1, 1])
        const received = await twilio.waitForMessages(3)
        expect(received.map((m) => m.to).sort()).toEqual(numbers)
        expect(twilio.requests).toBe(3)
      } finally {
        await second.close()
      }
    } finally {
      twilio.release()
      fs.rmSync(dataDir, { recursive: true, force: true })
    }
  })

  it('a record claimed by a server that died is sent again only once its lease has run out', async () => {
    const { store } = server.services
    const lease = new Date(Date.now() + 3_600_000).toISOString()
    const { body } = await store.write(
      {
        op: 'create',
        collection: 'messages',
        body: {
          channel: 'sms',
          batch: 'dead',
          to: '+15550000021',
          user: null,
          group: null,
          bcc: [],
          template: null,
          content: { text: 'claimed by the dead' },
          status: 'queued',
          attempts: 1,
          nextAttempt: lease,
          lastError: null,
          sentAt: null,
          providerId: null,
          sentBy: 'admin',
        },
      },
      { user: null },
    )
    const id = (body as { _id: string })._id
    // Other sends go through meanwhile; the leased record is left alone.
    const other = idOf(await post('/api/sms', { to: '+15550000022', text: 'alive' }))
    await settled(store, { _id: other })
    expect((await store.get('messages', id))!.status).toBe('queued')
    expect(twilio.messages.map((m) => m.to)).toEqual(['+15550000022'])
    // The lease ends: the next pass claims it and sends it once.
    await store.write(
      {
        op: 'patch',
        collection: 'messages',
        id,
        body: { nextAttempt: new Date(Date.now() - 1).toISOString() },
      },
      { user: null },
    )
    const [doc] = await settled(store, { _id: id })
    expect(doc).toMatchObject({ status: 'sent', attempts: 2 })
    expect(twilio.messages.filter((m) => m.to === '+15550000021')).toHaveLength(1)
  })
})
