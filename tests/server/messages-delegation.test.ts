/**
 * A send acts for its sender only (issue 35 finding 7, docs/operating/messages.md), against the real server: a
 * template's partials are read with the sender's rights (as the preview reads them); the answer shows
 * a user's address only to a sender who may read that user; each sender may queue at most
 * MESSAGE_SENDER_PER_MINUTE / _PER_DAY messages, counted in the store (429 with Retry-After), on one
 * instance and across two sharing PostgreSQL.
 */
import { describe, expect, it } from 'vitest'
import { sendLimitWait } from '../../src/server/messages/rate'
import type { DocumentStore } from '../../src/server/store/types'
import {
  MESSAGE_SENDER_DAY_MS,
  MESSAGE_SENDER_PER_DAY,
  MESSAGE_SENDER_PER_MINUTE,
} from '../../src/shared/messaging'
import { MESSAGING_TEXT, TEMPLATE_TEXT } from '../../src/shared/texts'
import { describePostgres, serverPairOnPostgres } from '../helpers/postgres-suite'
import { suiteServer } from '../helpers/suite-server'

const server = suiteServer()
const email = (token: string, json: Record<string, unknown>, headers: Record<string, string> = {}) =>
  server.api('/api/email', { method: 'POST', json, token, headers })

/** `count` message records as sends leave them (`sent`, so the queue leaves them be), in one go. */
async function sentBy(store: DocumentStore, user: string, count: number): Promise<void> {
  const body = { channel: 'email', to: 'x@example.com', status: 'sent', sentBy: user }
  for (let done = 0; done < count; done += 2000) {
    const n = Math.min(2000, count - done)
    await store.writeMany(
      Array.from({ length: n }, () => ({ op: 'create' as const, collection: 'messages', body })),
      { user: null },
    )
  }
}

describe("a template's partials", () => {
  it('are read with the sender’s rights, as the preview reads them', async () => {
    const make = (json: Record<string, unknown>) =>
      server.api('/api/templates', { json, token: server.admin })
    expect((await make({ _id: 'salary', kind: 'partial', content: 'Salary: 99,000' })).status).toBe(201)
    const note = await make({
      _id: 'note',
      kind: 'email',
      subject: 'A note',
      text: 'Hello. {% include "salary" %}',
    })
    expect(note.status, note.text).toBe(201)
    const tess = await server.userWith('tess', ['messages/email:c', 'templates/note:r'])
    const res = await email(tess, { to: 'friend@example.com', template: 'note' })
    expect(res.status, res.text).toBe(400)
    expect((res.body as { message: string }).message).toBe(TEMPLATE_TEXT.missingReference('salary'))
    const preview = await server.api('/api/templates/note/render', { method: 'POST', json: {}, token: tess })
    expect(preview.status).toBe(400)
    // Someone who may read the partial sends it as before.
    const ok = await email(server.admin, { to: 'friend@example.com', template: 'note' })
    expect(ok.status, ok.text).toBe(202)
    const { items } = await server.services.store.list('messages', { filter: { to: 'friend@example.com' } })
    expect(JSON.stringify(items[0]?.content)).toContain('Salary: 99,000')
  })
})

describe('the send answer', () => {
  it("shows a user's address only to a sender who may read that user", async () => {
    await server.userWith('uma', [])
    await server.services.store.write(
      { op: 'patch', collection: 'users', id: 'uma', body: { email: 'uma@private.test' } },
      { user: null },
    )
    const vic = await server.userWith('vic', ['messages/email:c'])
    const json = { to: ['uma', 'plain@example.com'], subject: 'Hi', text: 'Hello' }
    const res = await email(vic, json, { 'idempotency-key': 'vic-1' })
    expect(res.status, res.text).toBe(202)
    const answer = res.body as { messages: Array<{ to: string | null; user: string | null }> }
    expect(answer.messages).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ user: 'uma', to: null }),
        expect.objectContaining({ user: null, to: 'plain@example.com' }),
      ]),
    )
    expect(res.text).not.toContain('uma@private.test')
    // A replay of the key answers the same way.
    const replay = await email(vic, json, { 'idempotency-key': 'vic-1' })
    expect(replay.headers.get('idempotent-replayed')).toBe('true')
    expect(replay.text).not.toContain('uma@private.test')
    // The message itself still goes to the address.
    const { items } = await server.services.store.list('messages', { filter: { user: 'uma' } })
    expect(items.map((m) => m.to)).toEqual(['uma@private.test'])
    // Who may read the user sees it.
    const wil = await server.userWith('wil', ['messages/email:c', 'users/uma:r'])
    const shown = await email(wil, { to: 'uma', subject: 'Hi', text: 'Hello' })
    expect((shown.body as { messages: Array<{ to: string }> }).messages[0]?.to).toBe('uma@private.test')
  })

  it("an action's messages.send answers the same way, with the run-as user's rights", async () => {
    const ola = await server.userWith('ola', ['messages/email:c', 'actions:*'])
    const code = "return await messages.send('email', { to: 'uma', subject: 'Hi', text: 'From a script' })"
    const saved = await server.api('/api/actions', {
      json: { _id: 'ola-mail', name: 'ola-mail', trigger: { type: 'POST' }, code },
      token: ola,
    })
    expect(saved.status, saved.text).toBe(201)
    const res = await server.api('/api/actions/run/ola-mail', { json: {}, token: ola })
    expect(res.status, res.text).toBe(200)
    expect(res.text, res.text).not.toContain('uma@private.test')
    expect((res.body as { messages: Array<{ to: unknown }> }).messages[0]?.to).toBeNull()
    // A debug run (nothing sent) hides the address too.
    const debug = await server.api('/api/actions/debug/ola-mail', { json: { input: {} }, token: ola })
    expect(debug.status, debug.text).toBe(200)
    expect(debug.text).toContain('dryRun')
    expect(debug.text).not.toContain('uma@private.test')
  })
})

describe('the per-sender limit', () => {
  it('answers 429 with Retry-After past the minute’s messages, for that sender only', async () => {
    const xan = await server.userWith('xan', ['messages/email:c'])
    await sentBy(server.services.store, 'xan', MESSAGE_SENDER_PER_MINUTE - 1)
    const json = { to: 'one@example.com', subject: 'Hi', text: 'Hello' }
    // One more fits; two do not.
    const two = await email(xan, { ...json, to: ['one@example.com', 'two@example.com'] })
    expect(two.status, two.text).toBe(429)
    const seconds = Number(two.headers.get('retry-after'))
    expect(seconds).toBeGreaterThan(0)
    expect(seconds).toBeLessThanOrEqual(60)
    expect((two.body as { message: string }).message).toBe(
      MESSAGING_TEXT.senderLimit(MESSAGE_SENDER_PER_MINUTE, 'minute', seconds),
    )
    expect((await email(xan, json)).status).toBe(202)
    expect((await email(xan, json)).status).toBe(429)
    // The console's send (a synced request) is held the same way, so its outbox waits and retries.
    const request = await server.api('/api/message-requests', {
      method: 'POST',
      json: { _id: 'xan-req', channel: 'email', ...json },
      token: xan,
    })
    expect(request.status).toBe(429)
    expect(Number(request.headers.get('retry-after'))).toBeGreaterThan(0)
    // Someone else sends as usual.
    const yves = await server.userWith('yves', ['messages/email:c'])
    expect((await email(yves, json)).status).toBe(202)
    // A minute later the same sender may send again (the day holds far more).
    expect(await sendLimitWait(server.services.store, 'xan', 1, Date.now() + 61_000)).toBeNull()
  })

  it('holds a day’s cap too, until the oldest of the day’s messages is a day old', async () => {
    const { store } = server.services
    await sentBy(store, 'zed', MESSAGE_SENDER_PER_DAY)
    const later = Date.now() + 2 * 60_000
    const wait = await sendLimitWait(store, 'zed', 1, later)
    expect(wait).toMatchObject({ per: 'day', max: MESSAGE_SENDER_PER_DAY })
    expect(wait!.waitMs).toBeGreaterThan(MESSAGE_SENDER_DAY_MS - 4 * 60_000)
    expect(wait!.waitMs).toBeLessThanOrEqual(MESSAGE_SENDER_DAY_MS)
  })
})

describePostgres('the per-sender limit on two instances sharing PostgreSQL', () => {
  const pair = serverPairOnPostgres()
  it('counts the messages queued through either instance', async () => {
    const { a, b } = pair
    const [tokenA, tokenB] = [await a.login(), await b.login()]
    const json = { to: 'pg@example.com', subject: 'Hi', text: 'Hello' }
    expect((await a.api('/api/email', { method: 'POST', json, token: tokenA })).status).toBe(202)
    await sentBy(a.services.store, 'admin', MESSAGE_SENDER_PER_MINUTE - 1)
    const res = await b.api('/api/email', { method: 'POST', json, token: tokenB })
    expect(res.status, res.text).toBe(429)
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
  })
})
