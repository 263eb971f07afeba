/**
 * IPv6 addresses that carry a private IPv4 one (issue 35, low): IPv4-compatible `::a.b.c.d`, 6to4
 * `2002::/16`, IPv4-translated and Teredo are judged by the IPv4 they lead to, in the one address rule
 * (push/endpoint-address.ts) that action scripts' fetch, the PDF renderer's guard and push share.
 */
import { describe, expect, it } from 'vitest'
import { guardedFetch } from '../../src/server/actions/fetch'
import { embeddedIpv4, isPrivateAddress } from '../../src/server/push/endpoint-address'

const PRIVATE = [
  '::10.0.0.1',
  '::a00:1',
  '::127.0.0.1',
  '::ffff:0:192.168.1.1',
  '2002:a00:1::',
  '2002:c0a8:101::1',
  '2002:7f00:1::1',
  '2002:a9fe:a9fe::', // 169.254.169.254, cloud metadata
  '2001:0:4136:e378:8000:63bf:3fff:fdd2', // Teredo
  '64:ff9b:1::a00:1',
]
const PUBLIC = ['::808:808', '2002:808:808::1', '2a00:1450:4001::1', '::ffff:8.8.8.8']

describe('IPv6 with an embedded IPv4', () => {
  it('judges the IPv4 inside', () => {
    for (const ip of PRIVATE) expect(isPrivateAddress(ip), ip).toBe(true)
    for (const ip of PUBLIC) expect(isPrivateAddress(ip), ip).toBe(false)
    expect(embeddedIpv4('2002:c0a8:101::1')).toBe('192.168.1.1')
    expect(embeddedIpv4('::ffff:0:a00:1')).toBe('10.0.0.1')
    expect(embeddedIpv4('2a00:1450:4001::1')).toBeNull()
  })

  it("refuses them in action scripts' fetch before connecting", async () => {
    for (const host of ['[::10.0.0.1]', '[::a00:1]', '[2002:a00:1::]', '[2002:7f00:1::1]:8080']) {
      await expect(guardedFetch(`http://${host}/`, {}), host).rejects.toThrow(
        /is a loopback, private or local address/,
      )
    }
  })
})
