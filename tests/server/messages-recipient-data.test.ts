/**
 * Issue 36 (#1, #4): a template sent without data greets each recipient with their own name and
 * e-mail, never the sample's ("Hello Ada" to everyone), and shows an e-mail only to a sender who may
 * read the user; a refused recipient names the `to` field, so the console shows it next to the
 * recipients; GET /api/messages/channels says which channels can send, so the console can say
 * "Queued: e-mail is not configured on this server". Setting: tests/helpers/message-fixture.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MESSAGE_CHANNELS_PATH, type MessageChannelsInfo } from '../../src/shared/messaging'
import { MESSAGING_TEXT } from '../../src/shared/texts'
import { type MessageFixture, startMessageFixture } from '../helpers/message-fixture'
import { records } from '../helpers/messages'
import { startTestServer, type TestServer } from '../helpers/server'

let fx: MessageFixture
let server: TestServer
let admin: string

beforeAll(async () => {
  fx = await startMessageFixture()
  ;({ server, admin } = fx)
  const res = await server.api('/api/templates', {
    token: admin,
    json: {
      _id: 'hello',
      kind: 'email',
      subject: 'Hello {{ name }}',
      text: 'Hello {{ name }} <{{ email }}>, order {{ order }}, {{ recipient.name }}',
      sample: { name: 'Ada', email: 'ada@example.com', order: '1042' },
    },
  })
  if (res.status !== 201) throw new Error(res.text)
})
afterAll(async () => {
  await fx?.close()
})

const post = (path: string, json: unknown, token = admin) => server.api(path, { method: 'POST', json, token })

async function textsOf(batch: string): Promise<Record<string, string>> {
  const docs = await records(server.services.store, { batch })
  return Object.fromEntries(docs.map((d) => [String(d.to), String((d.content as { text: string }).text)]))
}

describe('template data per recipient', () => {
  it('fills each recipient’s own name and e-mail over the sample, and keeps the sample’s other fields', async () => {
    const res = await post('/api/email', { to: 'group:team', template: 'hello' })
    expect(res.status).toBe(202)
    const texts = await textsOf((res.body as { batch: string }).batch)
    expect(texts).toEqual({
      'ann@example.com': 'Hello ANN <ann@example.com>, order 1042, ANN',
      'bob@example.com': 'Hello BOB <bob@example.com>, order 1042, BOB',
    })
    const subjects = (
      await records(server.services.store, { batch: (res.body as { batch: string }).batch })
    ).map((d) => (d.content as { subject: string }).subject)
    expect(subjects.sort()).toEqual(['Hello ANN', 'Hello BOB'])
  })

  it('never shows the e-mail of a user the sender may not read, nor the sample’s in its place', async () => {
    const sender = await server.userWith('mailer-36', ['messages/email:c', 'templates:r', 'messages:r'])
    const res = await post('/api/email', { to: 'user:ann', template: 'hello' }, sender)
    expect(res.status).toBe(202)
    const texts = await textsOf((res.body as { batch: string }).batch)
    expect(texts).toEqual({ 'ann@example.com': 'Hello ANN <>, order 1042, ANN' })
  })

  it('keeps data the sender typed for everyone, with `recipient` still each one’s own', async () => {
    const res = await post('/api/email', {
      to: 'user:bob',
      template: 'hello',
      data: { name: 'team', order: '7' },
    })
    expect(res.status).toBe(202)
    const texts = await textsOf((res.body as { batch: string }).batch)
    expect(texts).toEqual({ 'bob@example.com': 'Hello team <bob@example.com>, order 7, BOB' })
  })
})

describe('a refused recipient', () => {
  it('names the `to` field, also for a queued console send (message-requests)', async () => {
    const res = await post('/api/message-requests', {
      _id: 'req-36-nophone',
      channel: 'sms',
      to: ['user:cy'],
      text: 'Hi',
    })
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ message: MESSAGING_TEXT.noAddress('cy', 'sms'), field: 'to' })
  })
})

describe('GET /api/messages/channels', () => {
  it('says which channels have a provider, to any session', async () => {
    const reader = await server.userWith('nobody-36', [])
    const res = await server.api(MESSAGE_CHANNELS_PATH, { token: reader })
    expect(res.status).toBe(200)
    expect((res.body as MessageChannelsInfo).configured).toMatchObject({ email: true, sms: true, call: true })
    expect((await server.api(MESSAGE_CHANNELS_PATH)).status).toBe(401)
  })

  it('says e-mail and SMS are not configured on a server without SMTP and SMS settings', async () => {
    const bare = await startTestServer()
    try {
      const token = await bare.login()
      const res = await bare.api(MESSAGE_CHANNELS_PATH, { token })
      expect(res.status).toBe(200)
      expect((res.body as MessageChannelsInfo).configured).toMatchObject({ email: false, sms: false })
    } finally {
      await bare.close()
    }
  })
})
