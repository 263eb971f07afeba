/**
 * Request bodies answered before they arrived (issue 35, low; server/http/unread-body.ts): a client
 * still sending a refused body gets to read the answer (no reset while it sends, so Node's fetch sees
 * the 413), and the server reads at most UNREAD_BODY_DISCARD_MAX_BYTES more of it before it closes the
 * connection, so an anonymous client cannot stream an endless body into a 401.
 */
import net from 'node:net'
import { describe, expect, it } from 'vitest'
import { BODY_LIMIT_BYTES, UNREAD_BODY_DISCARD_MAX_BYTES } from '../../src/shared/constants'
import { suiteServer } from '../helpers/suite-server'

const server = suiteServer()

interface RawOutcome {
  /** Bytes of the body the client managed to write before the connection ended. */
  written: number
  /** The status line the client read, or ''. */
  status: string
  error: string | null
}

/** Sends headers then `total` body bytes as fast as the socket takes them; reads whatever comes back. */
function sendRaw(token: string | null, total: number): Promise<RawOutcome> {
  const { hostname, port } = new URL(server.url)
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname)
    let written = 0
    let received = ''
    let error: string | null = null
    socket.on('data', (d) => {
      received += d.toString('latin1')
    })
    socket.on('error', (e) => {
      error = (e as NodeJS.ErrnoException).code ?? e.message
    })
    socket.on('close', () => resolve({ written, status: received.split('\r\n')[0] ?? '', error }))
    socket.write(
      `POST /api/data/big HTTP/1.1\r\nhost: ${hostname}\r\ncontent-type: application/json\r\n` +
        `${token ? `authorization: Bearer ${token}\r\n` : ''}content-length: ${total}\r\n\r\n`,
    )
    const chunk = Buffer.alloc(64 * 1024, 0x20)
    const pump = () => {
      while (written < total && !socket.destroyed) {
        const part = chunk.subarray(0, Math.min(chunk.length, total - written))
        written += part.length
        if (!socket.write(part)) return void socket.once('drain', pump)
      }
      // The whole body is out: nothing more to say; the server closes or keeps the connection.
      if (!socket.destroyed) socket.end()
    }
    pump()
  })
}

describe('bodies answered before they arrive', () => {
  it('lets a client finish sending an over-limit body and read its 413', async () => {
    // Over the limit, within the discard bound: before, the socket was cut mid-send (EPIPE).
    const total = Math.floor((BODY_LIMIT_BYTES + UNREAD_BODY_DISCARD_MAX_BYTES) / 2)
    const out = await sendRaw(server.admin, total)
    expect(out.status).toMatch(/^HTTP\/1\.1 413 /)
    expect(out.error).toBeNull()
    expect(out.written).toBe(total)
  })

  it("answers Node's fetch sending an over-limit body with the 413, not a reset", async () => {
    for (const size of [BODY_LIMIT_BYTES + 1024, 3 * BODY_LIMIT_BYTES]) {
      const res = await fetch(`${server.url}/api/data/big`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${server.admin}` },
        body: Buffer.alloc(size, 0x20),
      })
      expect(res.status).toBe(413)
      expect(await res.json()).toMatchObject({ error: 'payload_too_large' })
    }
  })

  it('stops reading an unauthenticated body past the bound, after answering 401', async () => {
    // Before: node read all of it (and kept the connection for the next request).
    const total = 6 * UNREAD_BODY_DISCARD_MAX_BYTES
    const out = await sendRaw(null, total)
    expect(out.status).toMatch(/^HTTP\/1\.1 401 /)
    expect(out.written).toBeLessThan(total)
    // The server still answers.
    expect((await server.api('/api/data/big', { token: server.admin })).status).toBe(200)
  })

  it('keeps a small refused body’s connection usable', async () => {
    const small = JSON.stringify({ name: 'x'.repeat(1000) })
    const first = await fetch(`${server.url}/api/data/big`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: small,
    })
    expect(first.status).toBe(401)
    await first.text()
    const second = await fetch(`${server.url}/api/data/big`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${server.admin}` },
      body: JSON.stringify({ _id: 'after', name: 'ok' }),
    })
    expect(second.status).toBe(201)
  })
})
