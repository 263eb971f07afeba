/**
 * The bulky read routes answer compressed (server/http/compressed.ts): a sync page, a collection list
 * and a log list in brotli or gzip as the client accepts, the same JSON once decoded, with
 * `Vary: Accept-Encoding`; the single document routes never. The websocket's catch-up pages go
 * deflated (permessage-deflate). Real server on loopback, raw bytes.
 */
import type net from 'node:net'
import zlib from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { API_COMPRESS_MIN_BYTES } from '../../src/shared/constants'
import { rawGet } from '../helpers/raw-get'
import { startTestServer, type TestServer } from '../helpers/server'
import { openSocket } from './socket-client'

let server: TestServer
let token: string
const note = 'Renewal discussed in the last call; send the updated price list. '.repeat(40)

beforeAll(async () => {
  server = await startTestServer()
  token = await server.login()
  for (let i = 0; i < 30; i++) {
    const res = await server.api('/api/data/contacts', {
      token,
      json: { _id: `c-${i}`, name: `Contact ${i}`, note },
    })
    expect(res.status).toBe(201)
    await server.api('/api/logs/client', { token, json: { level: 'info', log: `line ${i} ${note}` } })
  }
})
afterAll(() => server.close())

const get = (pathname: string, acceptEncoding?: string, bearer = token) =>
  rawGet(server.url + pathname, {
    authorization: `Bearer ${bearer}`,
    ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}),
  })

const decode = (body: Buffer, encoding: string | undefined) =>
  JSON.parse(
    (encoding === 'br'
      ? zlib.brotliDecompressSync(body)
      : encoding === 'gzip'
        ? zlib.gunzipSync(body)
        : body
    ).toString('utf8'),
  )

describe('compressed answers of the bulky read routes', () => {
  it('sends a sync page in brotli, or gzip, as the client accepts: the same JSON, a fraction of the bytes', async () => {
    const plain = await get('/api/sync?cursor=0&limit=2000')
    expect(plain.status).toBe(200)
    expect(plain.headers['content-encoding']).toBeUndefined()
    const expected = decode(plain.body, undefined)
    expect(expected.changes.length).toBeGreaterThanOrEqual(30)

    const br = await get('/api/sync?cursor=0&limit=2000', 'gzip, deflate, br, zstd')
    expect(br.headers['content-encoding']).toBe('br')
    expect(br.headers.vary).toMatch(/accept-encoding/i)
    expect(br.body.length).toBeLessThan(plain.body.length / 5)
    expect(decode(br.body, 'br')).toEqual(expected)

    const gz = await get('/api/sync?cursor=0&limit=2000', 'gzip')
    expect(gz.headers['content-encoding']).toBe('gzip')
    expect(decode(gz.body, 'gzip')).toEqual(expected)
  })

  it('compresses collection and log lists, keeping their total count', async () => {
    for (const pathname of ['/api/data/contacts?limit=30', '/api/logs/client?limit=30']) {
      const res = await get(pathname, 'br')
      expect(res.status).toBe(200)
      expect(res.headers['content-encoding']).toBe('br')
      expect(res.headers['x-total-count']).toBe('30')
      expect(decode(res.body, 'br')).toHaveLength(30)
    }
  })

  it('leaves a small answer alone', async () => {
    await server.api('/api/data/tiny', { token, json: { _id: 't', n: 1 } })
    const res = await get('/api/data/tiny', 'br')
    expect(res.status).toBe(200)
    expect(res.headers['content-encoding']).toBeUndefined()
    expect(res.body.length).toBeLessThan(API_COMPRESS_MIN_BYTES)
    expect(decode(res.body, undefined)).toMatchObject([{ _id: 't', n: 1 }])
  })

  it('never compresses a single document, however large', async () => {
    const res = await get('/api/data/contacts/c-1', 'br')
    expect(res.status).toBe(200)
    expect(res.body.length).toBeGreaterThan(API_COMPRESS_MIN_BYTES)
    expect(res.headers['content-encoding']).toBeUndefined()
    expect(decode(res.body, undefined)).toMatchObject({ _id: 'c-1' })
  })

  it('still checks the caller on the compressed routes', async () => {
    expect((await get('/api/sync?cursor=0', 'br', 'not-a-token')).status).toBe(401)
    const nobody = await server.userWith('nobody', null)
    const denied = await get('/api/data/contacts', 'br', nobody)
    expect(denied.status).toBe(403)
    expect(decode(denied.body, denied.headers['content-encoding'])).toHaveProperty('message')
  })
})

describe('the websocket, deflated', () => {
  it('negotiates permessage-deflate and sends a catch-up page in a fraction of its bytes', async () => {
    const s = await openSocket(server.url, token)
    expect(s.ws.extensions).toContain('permessage-deflate')
    await s.next((m) => m.event === 'connected')
    const wire = (s.ws as unknown as { _socket: net.Socket })._socket
    const before = wire.bytesRead
    s.send('sync', { cursor: 0 })
    const pages = await s.pagesUntil()
    const received = wire.bytesRead - before
    const text = pages.reduce((n, p) => n + JSON.stringify({ event: 'changes', payload: p }).length, 0)
    expect(pages.flatMap((p) => p.changes).filter((c) => c.collection === 'data/contacts')).toHaveLength(30)
    expect(text).toBeGreaterThan(60_000)
    expect(received).toBeLessThan(text / 5)
    await s.close()
  })
})
