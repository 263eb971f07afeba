/**
 * MOMENTUM_TRUST_PROXY (src/server/trust-proxy.ts): by default a client's X-Forwarded-For is ignored,
 * so analytics records the connecting address; with the proxy named, analytics records (and looks up
 * the country of) the client address the proxy forwards, and a header from anyone else is still
 * ignored. A value the server cannot read stops the start.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { lookupIp } from '../../src/server/analytics/geo'
import { configFromEnv } from '../../src/server/config'
import { parseTrustProxy } from '../../src/server/trust-proxy'
import { suiteServer } from '../helpers/suite-server'
import { record } from './analytics-cases'

const CLIENT = '81.2.69.142'

describe('MOMENTUM_TRUST_PROXY', () => {
  it('reads off, a list of addresses or ranges, a hop count and true; refuses anything else', () => {
    for (const off of [undefined, '', ' false ']) expect(parseTrustProxy(off)).toBe(false)
    expect(parseTrustProxy('true')).toBe(true)
    expect(parseTrustProxy('127.0.0.1, 10.0.0.0/8,::1')).toEqual(['127.0.0.1', '10.0.0.0/8', '::1'])
    const hops = parseTrustProxy('1') as (address: string, hop: number) => boolean
    expect([hops('10.0.0.1', 0), hops('10.0.0.1', 1)]).toEqual([true, false])
    for (const bad of ['yes', '10.0.0.0/33', 'proxy.example.com', '10.0.0.1/8/1'])
      expect(() => parseTrustProxy(bad), bad).toThrow(/MOMENTUM_TRUST_PROXY/)
    expect(configFromEnv({}).trustProxy).toBe(false)
    expect(configFromEnv({ MOMENTUM_TRUST_PROXY: '127.0.0.1' }).trustProxy).toEqual(['127.0.0.1'])
  })
})

describe.each([
  { name: 'unset', trustProxy: undefined, expected: '127.0.0.1' },
  { name: 'naming another proxy', trustProxy: ['10.0.0.1'], expected: '127.0.0.1' },
  { name: 'naming the proxy that connects', trustProxy: ['127.0.0.1'], expected: CLIENT },
])('analytics behind a proxy, MOMENTUM_TRUST_PROXY $name', ({ trustProxy, expected }) => {
  const server = suiteServer(trustProxy ? { trustProxy } : {})
  beforeAll(async () => {
    const whole = { anonymizeIp: false, retentionDays: 90, honourDnt: true }
    const set = await server.api('/api/analytics/settings', {
      method: 'PUT',
      json: whole,
      token: server.admin,
    })
    expect(set.status).toBe(200)
  })

  it(`records ${expected} for a visit forwarded for ${CLIENT}`, async () => {
    const posted = await server.api('/api/analytics', {
      json: record({ 9: 'visitor-proxied' }),
      headers: { 'x-forwarded-for': CLIENT },
    })
    expect(posted.status, posted.text).toBe(201)
    const res = await server.api('/api/analytics/visits?visitor=visitor-proxied', { token: server.admin })
    const [visit] = (res.body as { visits: Array<{ ip: string; country: string }> }).visits
    expect(visit).toMatchObject({ ip: expected, country: lookupIp(expected).country ?? '' })
    if (expected === CLIENT) expect(visit!.country).not.toBe('')
  })
})
