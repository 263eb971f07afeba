/**
 * HTTP transport limits against the real server (issue 10, "slow request bodies are never timed
 * out"): a client that sends headers and then no body is answered 408 and disconnected once the body
 * has been idle for the configured time, while a steady upload that takes several times that long
 * still succeeds. The idle time is shortened through the config so the test does not wait 30 s.
 */
import http from 'node:http'
import net from 'node:net'
import { beforeAll, describe, expect, it } from 'vitest'
import { SERVER_TEXT } from '../../src/shared/texts'
import { suiteServer } from '../helpers/suite-server'

const IDLE_MS = 1500

let token: string

const server = suiteServer({ bodyIdleTimeoutMs: IDLE_MS }, { login: false })
beforeAll(async () => {
  token = await server.login()
})

const address = () => new URL(server.url)

describe('request body timeouts', () => {
  it('answers 408 and closes a connection whose body never arrives', async () => {
    const { hostname, port } = address()
    const socket = net.connect(Number(port), hostname)
    let received = ''
    socket.on('data', (d) => {
      received += d.toString()
    })
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()))
    socket.write(
      'POST /api/data/slow HTTP/1.1\r\n' +
        `host: ${hostname}:${port}\r\n` +
        `authorization: Bearer ${token}\r\n` +
        'content-type: application/json\r\n' +
        'content-length: 200\r\n\r\n{"name":',
    )
    // Nothing more is sent: the server must give up on its own.
    await closed
    expect(received).toMatch(/^HTTP\/1\.1 408 /)
    expect(received).toContain(
      JSON.stringify({ error: 'request_timeout', message: SERVER_TEXT.requestTimeout }),
    )
    // Nothing was written, and the server still answers.
    expect((await server.api('/api/data/slow', { token })).status).not.toBe(500)
    expect(await server.services.store.get('data/slow', 'x')).toBeNull()
  })

  it('lets a steady slow upload finish even when it takes several times the idle timeout', async () => {
    const { hostname, port } = address()
    const text = 'y'.repeat(4000)
    const body = Buffer.from(JSON.stringify({ _id: 'uploaded', text }))
    const chunks = 16
    const size = Math.ceil(body.length / chunks)
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        {
          host: hostname,
          port,
          method: 'POST',
          path: '/api/data/slow',
          headers: {
            authorization: `Bearer ${token}`,
            'content-type': 'application/json',
            'content-length': body.length,
          },
        },
        (res) => {
          res.resume()
          res.on('end', () => resolve(res.statusCode ?? 0))
        },
      )
      req.on('error', reject)
      let i = 0
      // A chunk every IDLE_MS / 4: 16 chunks take about 4 × IDLE_MS in all.
      const timer = setInterval(() => {
        req.write(body.subarray(i * size, (i + 1) * size))
        i++
        if (i === chunks) {
          clearInterval(timer)
          req.end()
        }
      }, IDLE_MS / 4)
    })
    expect(status).toBe(201)
    expect((await server.services.store.get('data/slow', 'uploaded'))?.text).toBe(text)
  })
})
