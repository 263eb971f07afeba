/**
 * The message queue with two server instances on one PostgreSQL database (docs/operating/messages.md "Queue"):
 * both workers race for the same records, each claim is a conditional write at the revision read, so
 * every message reaches the provider exactly once. Skipped, like every PostgreSQL suite, when no
 * PostgreSQL can be had (tests/helpers/postgres.ts).
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { records, until } from '../helpers/messages'
import { describePostgres, serverPairOnPostgres } from '../helpers/postgres-suite'
import { startTwilioPeer, type TwilioPeer } from '../helpers/twilio-peer'

describePostgres('the message queue on two instances sharing PostgreSQL', () => {
  let twilio: TwilioPeer
  beforeAll(async () => {
    twilio = await startTwilioPeer()
  })
  afterAll(async () => {
    await twilio?.close()
  })
  const pair = serverPairOnPostgres(() => ({
    sms: {
      url: twilio.url,
      accountSid: twilio.accountSid,
      authToken: twilio.authToken,
      from: '+15550001111',
    },
    // Both workers poll often, so they really do race for the same records.
    messageTiming: { retryBaseMs: 20, maxAttempts: 3, tickMs: 10 },
  }))

  it('sends each message exactly once while both instances claim', async () => {
    const { a, b } = pair
    const numbers = Array.from({ length: 40 }, (_, i) => `+1555010${String(i).padStart(4, '0')}`)
    const [tokenA, tokenB] = [await a.login(), await b.login()]
    const sends = [
      a.api('/api/sms', { method: 'POST', token: tokenA, json: { to: numbers.slice(0, 20), text: 'race' } }),
      b.api('/api/sms', { method: 'POST', token: tokenB, json: { to: numbers.slice(20), text: 'race' } }),
    ]
    for (const res of await Promise.all(sends)) expect(res.status).toBe(202)
    const docs = await until(
      () => records(a.services.store),
      (d) => d.length === 40 && d.every((x) => x.status === 'sent'),
      'forty sent',
    )
    expect(docs.every((d) => d.attempts === 1)).toBe(true)
    expect(twilio.messages.map((m) => m.to).sort()).toEqual(numbers)
    expect(twilio.requests).toBe(40)
  })
})
