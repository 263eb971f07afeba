/**
 * The assistant module against the real server and a real OpenAI-compatible peer on loopback.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { AI_TEXT, VALIDATION } from '../../src/shared/texts'
import { type OpenAiPeer, startOpenAiPeer } from '../helpers/openai-peer'
import { startTestServer } from '../helpers/server'
import { suiteServer } from '../helpers/suite-server'

let peer: OpenAiPeer

beforeAll(async () => {
  peer = await startOpenAiPeer()
})
afterAll(async () => {
  await peer?.close()
})
const server = suiteServer(() => ({
  aiBaseUrl: `${peer.url}/`,
  aiModel: 'tiny-test',
  aiApiKey: 'sk-local',
  aiTimeoutMs: 1500,
}))
beforeEach(() => {
  peer.requests.length = 0
  peer.delayMs = 0
  peer.failWith = null
})

describe('POST /api/ai', () => {
  it('refuses a missing or blank question with the spec message and calls nothing', async () => {
    for (const json of [{}, { question: '' }, { question: '   \n' }, { question: 42 }]) {
      const res = await server.api('/api/ai', { json, token: server.admin })
      expect(res.status).toBe(400)
      expect(res.body).toMatchObject({ error: 'bad_request', message: VALIDATION.aiMissingQuestion })
    }
    expect(peer.requests).toHaveLength(0)
  })

  it('asks the model with model, key, system prompt and context, and returns the raw reply', async () => {
    const res = await server.api('/api/ai', {
      json: {
        question: 'How many contacts?',
        context: { collection: 'contacts' },
        viewing: '/data/contacts',
      },
      token: server.admin,
    })
    expect(res.status).toBe(200)
    const reply = (res.body as { reply: string }).reply
    expect(reply).toContain('<think>')
    expect(reply).toContain('You asked: How many contacts?')
    const sent = peer.requests[0]!
    expect(sent.model).toBe('tiny-test')
    expect(sent.authorization).toBe('Bearer sk-local')
    expect(sent.messages[0]!.role).toBe('system')
    const last = sent.messages.at(-1)!
    expect(last.role).toBe('user')
    expect(last.content).toMatch(/^How many contacts\?\n<context>\n/)
    expect(last.content).toContain('Viewing: /data/contacts')
    expect(last.content).toContain('"collection":"contacts"')
  })
})

describe('history', () => {
  it('is kept raw per user, sent with the next question, and cleared by DELETE', async () => {
    const alice = await server.userWith('alice', ['ai:crd'])
    const bob = await server.userWith('bob', ['ai:crd'])
    await server.api('/api/ai', { method: 'DELETE', token: alice })

    expect((await server.api('/api/ai', { json: { question: 'first' }, token: alice })).status).toBe(200)
    expect((await server.api('/api/ai', { json: { question: 'second' }, token: alice })).status).toBe(200)
    // The second call carried the first turn to the model.
    const second = peer.requests.at(-1)!.messages.map((m) => m.content)
    expect(second).toContain('first')
    expect(second.some((c) => c.includes('<think>') && c.includes('You asked: first'))).toBe(true)

    const history = await server.api('/api/ai', { token: alice })
    expect(history.status).toBe(200)
    expect(history.body).toEqual([
      { role: 'user', content: 'first' },
      { role: 'assistant', content: expect.stringMatching(/^<think>.*<\/think>You asked: first$/s) },
      { role: 'user', content: 'second' },
      { role: 'assistant', content: expect.stringContaining('You asked: second') },
    ])
    // Bob sees none of Alice's conversation, and his question goes out without it.
    expect((await server.api('/api/ai', { token: bob })).body).toEqual([])
    await server.api('/api/ai', { json: { question: 'bob here' }, token: bob })
    expect(
      peer.requests
        .at(-1)!
        .messages.map((m) => m.content)
        .join('\n'),
    ).not.toContain('first')

    const cleared = await server.api('/api/ai', { method: 'DELETE', token: alice })
    expect(cleared.status).toBe(200)
    expect((await server.api('/api/ai', { token: alice })).body).toEqual([])
    expect((await server.api('/api/ai', { token: bob })).body).toHaveLength(2)
  })

  it('is internal: never in the sync change log', async () => {
    await server.api('/api/ai', { json: { question: 'secret plans' }, token: server.admin })
    const page = await server.services.store.changes(0, 10_000)
    expect(page.changes.some((c) => c.collection === '_ai_history')).toBe(false)
  })
})

describe('permissions', () => {
  it('needs ai:c to ask, ai:r to read, ai:d to clear, and a session at all', async () => {
    const reader = await server.userWith('reader', ['ai:r'])
    expect((await server.api('/api/ai', { json: { question: 'hi' }, token: reader })).status).toBe(403)
    expect((await server.api('/api/ai', { method: 'DELETE', token: reader })).status).toBe(403)
    expect((await server.api('/api/ai', { token: reader })).status).toBe(200)
    expect((await server.api('/api/ai/info', { token: reader })).status).toBe(200)
    const nobody = await server.userWith('nobody', null)
    expect((await server.api('/api/ai', { token: nobody })).status).toBe(403)
    expect((await server.api('/api/ai', { json: { question: 'hi' } })).status).toBe(401)
    expect(peer.requests).toHaveLength(0)
  })
})

describe('GET /api/ai/info', () => {
  it('names the endpoint host and the model', async () => {
    const res = await server.api('/api/ai/info', { token: server.admin })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ configured: true, host: new URL(peer.url).host, model: 'tiny-test' })
  })
})

describe('upstream failures', () => {
  it('answers 502 with the upstream status when the model fails, and stores nothing', async () => {
    const user = await server.userWith('failer', ['ai:crd'])
    peer.failWith = 500
    const res = await server.api('/api/ai', { json: { question: 'hello?' }, token: user })
    expect(res.status).toBe(502)
    expect(res.body).toEqual({
      error: 'bad_gateway',
      message: AI_TEXT.upstreamStatus(500, 'model is overloaded'),
    })
    expect((await server.api('/api/ai', { token: user })).body).toEqual([])
  })

  it('answers 504 when the model does not answer in time', async () => {
    peer.delayMs = 4000
    const res = await server.api('/api/ai', { json: { question: 'slow?' }, token: server.admin })
    expect(res.status).toBe(504)
    expect(res.body).toEqual({ error: 'gateway_timeout', message: AI_TEXT.timeout })
  })

  it('answers 502 when the service is down', async () => {
    const down = await startOpenAiPeer()
    const url = down.url
    await down.close()
    const other = await startTestServer({ aiBaseUrl: url, aiModel: 'm' })
    try {
      const token = await other.login()
      const res = await other.api('/api/ai', { json: { question: 'anyone?' }, token })
      expect(res.status).toBe(502)
      expect(res.body).toEqual({ error: 'bad_gateway', message: AI_TEXT.unreachable })
    } finally {
      await other.close()
    }
  })
})

describe('not configured', () => {
  it('says so on info and refuses questions with 503', async () => {
    const bare = await startTestServer()
    try {
      const token = await bare.login()
      const info = await bare.api('/api/ai/info', { token })
      expect(info.status).toBe(200)
      expect(info.body).toEqual({ configured: false, message: AI_TEXT.notConfigured })
      const res = await bare.api('/api/ai', { json: { question: 'hi' }, token })
      expect(res.status).toBe(503)
      expect(res.body).toEqual({ error: 'unavailable', message: AI_TEXT.notConfigured })
      // The question is still validated first.
      expect((await bare.api('/api/ai', { json: {}, token })).status).toBe(400)
    } finally {
      await bare.close()
    }
  })
})
