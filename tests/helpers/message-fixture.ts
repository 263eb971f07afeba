/**
 * The setting of the message tests (tests/server/messages*.test.ts): a real server wired to the real
 * peers (smtp-server, the Twilio-speaking HTTP peer, the decrypting push endpoint), a group `team`
 * of ann and bob (e-mail and phone) and cy (neither), a layout `frame`, an e-mail template `welcome`
 * using it and `recipient`, and an SMS template `code`.
 */
import { type PushEndpoint, startPushEndpoint } from './push-endpoint'
import { startTestServer, type TestServer } from './server'
import { type SmtpPeer, startSmtpPeer } from './smtp'
import { startTwilioPeer, type TwilioPeer } from './twilio-peer'

export interface MessageFixture {
  server: TestServer
  smtp: SmtpPeer
  twilio: TwilioPeer
  push: PushEndpoint
  admin: string
  close(): Promise<void>
}

export async function startMessageFixture(): Promise<MessageFixture> {
  const smtp = await startSmtpPeer()
  const twilio = await startTwilioPeer()
  const push = await startPushEndpoint()
  const server = await startTestServer({
    smtpUrl: smtp.url,
    mailFrom: 'Momentum <messages@momentum.test>',
    sms: {
      url: twilio.url,
      accountSid: twilio.accountSid,
      authToken: twilio.authToken,
      from: '+15550001111',
    },
    pushAllowPrivate: true,
  })
  const admin = await server.login()
  const { store } = server.services
  await store.write(
    { op: 'put', collection: 'groups', id: 'team', body: { name: 'Team', permissions: [] } },
    { user: null },
  )
  const members = [
    { id: 'ann', email: 'ann@example.com', phone: '+15550000001' },
    { id: 'bob', email: 'bob@example.com', phone: '+1 (555) 000-0002' },
    { id: 'cy', email: null, phone: null },
  ]
  for (const m of members) {
    await store.write(
      {
        op: 'put',
        collection: 'users',
        id: m.id,
        body: { name: m.id.toUpperCase(), email: m.email, phone: m.phone, groups: ['team'] },
      },
      { user: null },
    )
  }
  // A layout and an e-mail template with a variable, through the templates API.
  const layout = await server.api('/api/templates', {
    token: admin,
    json: {
      _id: 'frame',
      kind: 'layout',
      content: '<div class="frame">{% block content %}{% endblock %}</div>',
    },
  })
  if (layout.status !== 201) throw new Error(layout.text)
  const template = await server.api('/api/templates', {
    token: admin,
    json: {
      _id: 'welcome',
      kind: 'email',
      subject: 'Welcome to {{ product }}',
      html: '{% layout "frame" %}{% block content %}<p>Hello {{ recipient.user }}, {{ product }} & you</p>{% endblock %}',
      text: 'Hello {{ recipient.user }}, welcome to {{ product }}',
    },
  })
  if (template.status !== 201) throw new Error(template.text)
  const sms = await server.api('/api/templates', {
    token: admin,
    json: { _id: 'code', kind: 'sms', text: 'Your code is {{ code }} & it expires soon' },
  })
  if (sms.status !== 201) throw new Error(sms.text)
  return {
    server,
    smtp,
    twilio,
    push,
    admin,
    async close() {
      await server.close()
      await smtp.close()
      await twilio.close()
      await push.close()
    },
  }
}
