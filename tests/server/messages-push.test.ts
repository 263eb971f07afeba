/**
 * Push through the message queue (issue 13, docs/operating/messages.md): a `push` record per recipient user,
 * sent by the queue to that user's subscriptions. The Web Push endpoint peer decrypts what arrives
 * with the subscriber's own key, as a browser would, so the test reads the rendered title and body.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MESSAGING_TEXT } from '../../src/shared/texts'
import { type MessageFixture, startMessageFixture } from '../helpers/message-fixture'
import { settled } from '../helpers/messages'
import type { FakeSubscription } from '../helpers/push-endpoint'

let fx: MessageFixture
let subs: Record<string, FakeSubscription>

beforeAll(async () => {
  fx = await startMessageFixture()
  subs = {}
  // Two users with a browser subscribed each; ann (from the fixture) has none.
  for (const user of ['pia', 'pau']) {
    const token = await fx.server.userWith(user, [])
    const sub = fx.push.subscribe()
    const res = await fx.server.api('/api/notifications', { method: 'PATCH', json: sub.json, token })
    if (res.status !== 200) throw new Error(res.text)
    subs[user] = sub
  }
  const template = await fx.server.api('/api/templates', {
    token: fx.admin,
    json: {
      _id: 'nudge',
      kind: 'push',
      title: 'Hi {{ recipient.user }}',
      body: '{{ what }} & more',
      link: '/ui/data/{{ recipient.user }}',
    },
  })
  if (template.status !== 201) throw new Error(template.text)
})
afterAll(async () => {
  await fx?.close()
})

const post = (path: string, json: unknown) => fx.server.api(path, { method: 'POST', json, token: fx.admin })

describe('push through the queue', () => {
  it('renders a push template per recipient and delivers it, decrypted, to each subscription', async () => {
    const res = await post('/api/message-requests', {
      _id: 'push-req-1',
      channel: 'push',
      to: ['pia', 'user:pau'],
      template: 'nudge',
      data: { what: 'New orders' },
    })
    expect(res.status).toBe(201)
    const docs = await settled(fx.server.services.store, { batch: 'push-req-1' }, 2)
    expect(docs.map((d) => [d.to, d.status]).sort()).toEqual([
      ['pau', 'sent'],
      ['pia', 'sent'],
    ])
    for (const user of ['pia', 'pau']) {
      const got = fx.push.received.filter((p) => p.subscription === subs[user]!.id)
      expect(got).toHaveLength(1)
      expect(got[0]!.payload).toEqual({
        type: 'notification',
        title: `Hi ${user}`,
        body: 'New orders & more',
        url: `/ui/data/${user}`,
      })
    }
  })

  it('sends free title, body and link through POST /api/push', async () => {
    const res = await post('/api/push', {
      to: 'pia',
      title: 'Deploy done',
      body: 'v2 is live',
      link: '/ui/logs',
    })
    expect(res.status).toBe(202)
    const [doc] = await settled(fx.server.services.store, { batch: (res.body as { batch: string }).batch })
    expect(doc).toMatchObject({ channel: 'push', to: 'pia', status: 'sent' })
    const got = fx.push.received.filter((p) => p.subscription === subs.pia!.id)
    expect(got.at(-1)!.payload).toEqual({
      type: 'notification',
      title: 'Deploy done',
      body: 'v2 is live',
      url: '/ui/logs',
    })
  })

  it('fails at once, with the reason, for a user without a subscription', async () => {
    const before = fx.push.received.length
    const res = await post('/api/push', { to: 'ann', title: 'Hello' })
    expect(res.status).toBe(202)
    const [doc] = await settled(fx.server.services.store, { batch: (res.body as { batch: string }).batch })
    expect(doc).toMatchObject({ status: 'failed', attempts: 1, lastError: MESSAGING_TEXT.pushNoSubscription })
    expect(fx.push.received.length).toBe(before)
  })

  it('refuses a link that is not a site path or an http(s) address, typed or rendered', async () => {
    for (const link of ['javascript:alert(1)', '//evil.example/x', 'data:text/html,hi']) {
      const res = await post('/api/push', { to: 'pia', title: 'x', link })
      expect(res.status).toBe(400)
      expect(res.text).toContain(MESSAGING_TEXT.pushLinkInvalid)
    }
    const bad = await fx.server.api('/api/templates', {
      token: fx.admin,
      json: { _id: 'nudge-bad', kind: 'push', title: 'x', link: '{{ target }}' },
    })
    expect(bad.status).toBe(201)
    const res = await post('/api/push', {
      to: 'pia',
      template: 'nudge-bad',
      data: { target: 'javascript:alert(1)' },
    })
    expect(res.status).toBe(400)
    expect(res.text).toContain(MESSAGING_TEXT.pushLinkInvalid)
  })

  it("names the call record in a call's notification, so its Decline button can answer it", async () => {
    const res = await post('/api/call', { to: 'pau', room: 'push-room' })
    expect(res.status).toBe(202)
    const [doc] = await settled(fx.server.services.store, { batch: (res.body as { batch: string }).batch })
    expect(doc).toMatchObject({ channel: 'call', to: 'pau', status: 'sent' })
    const got = fx.push.received.filter((p) => p.subscription === subs.pau!.id)
    expect(got.at(-1)!.payload).toMatchObject({
      type: 'notification',
      url: '/ui/video/push-room',
      call: doc!._id,
    })
    expect(await fx.server.services.store.get('calls', doc!._id)).toMatchObject({
      to: 'pau',
      status: 'ringing',
    })
  })

  it('needs messages/push:c', async () => {
    const token = await fx.server.userWith('nopush', ['messages/email:c'])
    const res = await fx.server.api('/api/push', { method: 'POST', json: { to: 'pia', title: 'x' }, token })
    expect(res.status).toBe(403)
  })
})
