/**
 * Without a mail server (no MOMENTUM_SMTP_URL) a reset request still answers 200 for any address, and
 * says the mail is only queued, so the console does not claim it was sent (issue 11).
 */
import { expect, it } from 'vitest'
import { MAIL_COLLECTION } from '../../src/server/mail/outbox'
import { suiteServer } from '../helpers/suite-server'

const server = suiteServer({ publicUrl: 'http://console.momentum.test/' }, { login: false })

it('answers delivery "queued" and keeps the mail in the outbox', async () => {
  await server.userWith('quinn', [])
  const admin = await server.login()
  await server.api('/api/users/quinn', {
    method: 'PATCH',
    token: admin,
    json: { email: 'quinn@example.com' },
  })
  for (const email of ['quinn@example.com', 'nobody@example.com']) {
    const res = await server.api('/api/auth/reset', { method: 'PATCH', json: { email } })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ ok: true, delivery: 'queued' })
  }
  const { total } = await server.services.store.list(MAIL_COLLECTION, { filter: { to: 'quinn@example.com' } })
  expect(total).toBe(1)
})
