/**
 * Password reset end to end: the server mails a link through a real local SMTP server, the test reads
 * the token from the received mail, sets a new password with it and logs in; the token works once.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { MAIL_COLLECTION } from '../../src/server/mail/outbox'
import { SERVER_TEXT, VALIDATION } from '../../src/shared/messages'
import { startTestServer, type TestServer } from '../helpers/server'
import { type SmtpPeer, startSmtpPeer } from '../helpers/smtp'
import { collectStoredText } from '../helpers/stored-text'

let smtp: SmtpPeer
let server: TestServer
const seen: string[] = []

const reset = async (json: unknown, token?: string) => {
  const res = await server.api('/api/auth/reset', { method: 'PATCH', json, token })
  seen.push(res.text)
  return res
}
const login = (username: string, password: string) =>
  server.api('/api/auth/login', { json: { username, password } })
const setSetting = (id: string, value: unknown) =>
  server.services.store.write({ op: 'put', collection: 'settings', id, body: { value } }, { user: null })

/** Requests a reset for the address and returns the link from the mail that arrives. */
async function requestLink(email: string): Promise<string> {
  const before = smtp.mails.length
  const res = await reset({ email })
  expect(res.status).toBe(200)
  expect(res.body).toEqual({ ok: true })
  const mail = await smtp.waitForMail((m) => smtp.mails.indexOf(m) >= before && m.to.includes(email))
  const link = mail.decoded.match(/https?:\/\/\S+\/ui\/login\?reset=[A-Za-z0-9._%-]+/)
  expect(link).not.toBeNull()
  return link![0]
}
const tokenOf = (link: string) => decodeURIComponent(new URL(link).searchParams.get('reset')!)

beforeAll(async () => {
  smtp = await startSmtpPeer()
  server = await startTestServer({ smtpUrl: smtp.url, mailFrom: 'Momentum <no-reply@momentum.test>' })
})
afterAll(async () => {
  await server?.close()
  await smtp?.close()
})
beforeEach(() => {
  smtp.rejectWith = null
})

describe('PATCH /api/auth/reset', () => {
  it('needs an email or a password with a token', async () => {
    for (const json of [{}, { email: '  ' }, { password: 'new-pass-1' }]) {
      const res = await reset(json)
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ error: 'bad_request', message: VALIDATION.resetMissing })
    }
  })

  it('answers an unknown address the same way and sends nothing', async () => {
    const res = await reset({ email: 'nobody@example.com' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ ok: true })
    await server.services.mail.flush()
    expect(smtp.mails.filter((m) => m.to.includes('nobody@example.com'))).toHaveLength(0)
    const { total } = await server.services.store.list(MAIL_COLLECTION, {
      filter: { to: 'nobody@example.com' },
    })
    expect(total).toBe(0)
  })

  it('mails a one-use link that sets a new password and ends every session', async () => {
    const session = await server.userWith('rita', [])
    const link = await requestLink('rita@example.com')
    // No public_url yet: the link points at the origin the request came to.
    expect(link.startsWith(`${server.url}/ui/login?reset=`)).toBe(true)
    const mail = smtp.mails.at(-1)!
    expect(mail.from).toBe('no-reply@momentum.test')
    const token = tokenOf(link)

    // A reset token is no session.
    expect((await server.api('/api/auth/session', { token })).status).toBe(401)

    const ok = await reset({ password: 'rita-new-pass' }, token)
    expect(ok.status).toBe(200)
    expect((await login('rita', 'rita-new-pass')).status).toBe(200)
    expect((await login('rita', 'rita-pw')).status).toBe(401)
    expect((await server.api('/api/auth/session', { token: session })).status).toBe(401)

    const again = await reset({ password: 'stolen-pass' }, token)
    expect(again.status).toBe(401)
    expect((again.body as { message: string }).message).toBe(SERVER_TEXT.resetTokenInvalid)
    expect((await login('rita', 'stolen-pass')).status).toBe(401)

    const { items } = await server.services.store.list(MAIL_COLLECTION, {
      filter: { to: 'rita@example.com' },
    })
    expect(items[0]).toMatchObject({ status: 'sent', attempts: 1 })
  })

  it('refuses a forged token and a session token', async () => {
    const forged = await reset({ password: 'x-pass-1' }, 'eyJhbGciOiJIUzI1NiJ9.e30.bad')
    expect(forged.status).toBe(401)
    expect((forged.body as { message: string }).message).toBe(SERVER_TEXT.resetTokenInvalid)
    const session = await server.login()
    const res = await reset({ password: 'x-pass-1' }, session)
    expect(res.status).toBe(401)
  })

  it('builds the link from the public_url setting when set', async () => {
    await server.userWith('sid', [])
    await setSetting('public_url', 'https://console.example.com/')
    const link = await requestLink('sid@example.com')
    expect(link.startsWith('https://console.example.com/ui/login?reset=')).toBe(true)
    expect((await reset({ password: 'sid-new-pass' }, tokenOf(link))).status).toBe(200)
    expect((await login('sid', 'sid-new-pass')).status).toBe(200)
    await setSetting('public_url', '')
  })

  it('keeps a mail queued for a retry when the SMTP server refuses it for now', async () => {
    await server.userWith('tess', [])
    smtp.rejectWith = 451
    const res = await reset({ email: 'tess@example.com' })
    expect(res.status).toBe(200)
    await server.services.mail.flush()
    const find = async () =>
      (await server.services.store.list(MAIL_COLLECTION, { filter: { to: 'tess@example.com' } })).items[0]!
    expect(await find()).toMatchObject({ status: 'queued', attempts: 1 })
    expect(String((await find()).lastError)).toContain('451')
    expect(smtp.mails.some((m) => m.to.includes('tess@example.com'))).toBe(false)
  })

  it('never puts a password hash or token secret in a response or a document', async () => {
    for (const text of seen) expect(text).not.toContain('scrypt$')
    expect(await collectStoredText(server)).not.toContain('scrypt$')
  })
})
