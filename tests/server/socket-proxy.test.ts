/**
 * The e2e/soak fault proxy itself (tests/e2e/socket-proxy.ts): each fault does what the scenarios
 * rely on, against a tiny counting server — a cut never reaches the server, a stall holds the request
 * until released, a drop-after-apply reaches the server and loses only the answer.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type SocketProxy, startSocketProxy } from '../e2e/socket-proxy'

let applied = 0
let target: http.Server
let proxy: SocketProxy

beforeEach(async () => {
  applied = 0
  target = http.createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      if (req.method === 'POST') applied++
      res.setHeader('content-type', 'application/json')
      res.end(JSON.stringify({ applied }))
    })
  })
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', r))
  proxy = await startSocketProxy(`http://127.0.0.1:${(target.address() as AddressInfo).port}`)
})

afterEach(async () => {
  await proxy.close()
  await new Promise((r) => target.close(r))
})

const post = () => fetch(`${proxy.url}/api/things`, { method: 'POST', body: '{}' })

describe('socket proxy faults', () => {
  it('relays, and logs what passed', async () => {
    const res = await post()
    expect(await res.json()).toEqual({ applied: 1 })
    expect(proxy.log).toEqual([{ method: 'POST', url: '/api/things', status: 200, fate: 'passed' }])
  })

  it('offline: the request never reaches the server', async () => {
    proxy.offline = true
    await expect(post()).rejects.toThrow()
    expect(applied).toBe(0)
    expect(proxy.log[0]?.fate).toBe('cut')
    proxy.offline = false
    expect((await post()).status).toBe(200)
    expect(applied).toBe(1)
  })

  it('stall: held until released, then delivered once', async () => {
    proxy.stall = true
    let settled = false
    const pending = post().then((r) => {
      settled = true
      return r.json()
    })
    await new Promise((r) => setTimeout(r, 300))
    expect(settled).toBe(false)
    expect(applied).toBe(0)
    proxy.stall = false
    expect(await pending).toEqual({ applied: 1 })
  })

  it('a stalled request is cut when the link goes offline', async () => {
    proxy.stall = true
    const pending = post()
    await new Promise((r) => setTimeout(r, 100))
    proxy.offline = true
    await expect(pending).rejects.toThrow()
    expect(applied).toBe(0)
  })

  it('dropAfterApply: the server applies the write, the browser gets no answer', async () => {
    proxy.dropAfterApply = (method) => method === 'POST'
    await expect(post()).rejects.toThrow()
    expect(applied).toBe(1)
    expect(proxy.log[0]).toMatchObject({ status: 200, fate: 'dropped' })
    proxy.dropAfterApply = null
    expect(await (await post()).json()).toEqual({ applied: 2 })
  })

  it('delay and retarget still deliver', async () => {
    proxy.delayMs = 50
    expect((await post()).status).toBe(200)
    const other = http.createServer((_req, res) => res.end('"other"'))
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', r))
    proxy.retarget(`http://127.0.0.1:${(other.address() as AddressInfo).port}`)
    expect(await (await post()).json()).toBe('other')
    await new Promise((r) => other.close(r))
  })
})
