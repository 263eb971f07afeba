/**
 * The API client against a real local HTTP peer (node:http on loopback): what reaches the wire, how
 * answers are decoded, de-duplication of in-flight GETs and the session-expiry signal. XHR uploads
 * are covered by the browser tests, node has no XMLHttpRequest.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  ApiError,
  apiBase,
  buildUrl,
  createApiClient,
  encodeBody,
  isSessionExpiry,
  resolveMethod,
} from './client'

interface Seen {
  method: string
  url: string
  headers: http.IncomingHttpHeaders
  body: string
}

const seen: Seen[] = []
let server: http.Server
let base = ''

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = ''
    req.on('data', (c) => {
      body += c
    })
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body })
      const path = req.url!.split('?')[0]
      if (path === '/slow') {
        setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{"n":1}'), 150)
      } else if (path === '/text') {
        res.writeHead(200, { 'content-type': 'text/plain' }).end('hello')
      } else if (path === '/empty') {
        res.writeHead(204).end()
      } else if (path?.startsWith('/api/auth/login') || path === '/api/users') {
        res
          .writeHead(401, { 'content-type': 'application/json' })
          .end('{"error":"unauthorized","message":"no"}')
      } else if (path === '/bad') {
        res
          .writeHead(400, { 'content-type': 'application/json' })
          .end('{"error":"bad_request","message":"Bad id"}')
      } else if (path === '/crash') {
        res.writeHead(502, { 'content-type': 'text/html' }).end('<h1>Bad gateway</h1>')
      } else {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, body }))
      }
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(() => new Promise<void>((r) => server.close(() => r())))

const client = () => createApiClient({ fetch, base: () => base })

describe('apiBase (SPEC §7)', () => {
  const loc = (port: string) => ({
    protocol: 'https:',
    hostname: 'console.example.com',
    port,
    origin: `https://console.example.com${port ? `:${port}` : ''}`,
  })
  it('is the page origin', () => {
    expect(apiBase(loc(''))).toBe('https://console.example.com')
    expect(apiBase(loc('8443'))).toBe('https://console.example.com:8443')
  })
  it('is {host}:8080 under the dev server port 5173', () => {
    expect(apiBase(loc('5173'))).toBe('https://console.example.com:8080')
  })
  it("is the desktop wrapper's value when it supplies one", () => {
    expect(apiBase(loc('5173'), { api: 'http://10.0.0.2:9000/' })).toBe('http://10.0.0.2:9000')
  })
})

describe('pure rules', () => {
  it('appends query parameters, skipping empty ones and repeating arrays', () => {
    expect(buildUrl('http://h', '/api/x', { a: 1, b: null, c: ['p', 'q'], d: true })).toBe(
      'http://h/api/x?a=1&c=p&c=q&d=true',
    )
    expect(buildUrl('http://h', '/api/x?raw', { q: 'a b' })).toBe('http://h/api/x?raw&q=a+b')
    expect(buildUrl('http://h', 'api/x')).toBe('http://h/api/x')
  })
  it('uses POST with a body, GET without, and an explicit method when given', () => {
    expect(resolveMethod(undefined, { a: 1 })).toBe('POST')
    expect(resolveMethod(undefined, undefined)).toBe('GET')
    expect(resolveMethod('patch', { a: 1 })).toBe('PATCH')
  })
  it('sends objects as JSON and FormData as multipart', () => {
    expect(encodeBody({ a: 1 })).toEqual({ body: '{"a":1}', contentType: 'application/json' })
    const form = new FormData()
    expect(encodeBody(form)).toEqual({ body: form })
  })
  it('treats 401 as session expiry except on login, password and totp calls', () => {
    expect(isSessionExpiry(401, 'http://h/api/users')).toBe(true)
    expect(isSessionExpiry(401, 'http://h/api/auth/session')).toBe(true)
    expect(isSessionExpiry(401, 'http://h/api/auth/login')).toBe(false)
    expect(isSessionExpiry(401, 'http://h/api/auth/password')).toBe(false)
    expect(isSessionExpiry(401, 'http://h/api/auth/totp/alice?x=1')).toBe(false)
    expect(isSessionExpiry(403, 'http://h/api/users')).toBe(false)
  })
})

describe('createApiClient against a real peer', () => {
  it('sends JSON with the bearer token and decodes the JSON answer', async () => {
    const c = client()
    c.setToken('tok-1')
    const out = await c.request<{ ok: boolean; body: string }>('/echo', { body: { a: 1 }, query: { x: 'y' } })
    expect(out).toEqual({ ok: true, body: '{"a":1}' })
    const req = seen.at(-1)!
    expect(req.method).toBe('POST')
    expect(req.url).toBe('/echo?x=y')
    expect(req.headers.authorization).toBe('Bearer tok-1')
    expect(req.headers['content-type']).toBe('application/json')
  })

  it('sends FormData as multipart', async () => {
    const form = new FormData()
    form.append('file', new Blob(['abc']), 'a.txt')
    await client().request('/echo', { body: form })
    expect(seen.at(-1)!.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/)
    expect(seen.at(-1)!.body).toContain('abc')
  })

  it('decodes text and empty answers', async () => {
    const c = client()
    expect(await c.request('/text')).toBe('hello')
    expect(await c.request('/empty', { method: 'DELETE' })).toBeUndefined()
  })

  it('shares one request between identical in-flight GETs, but not between POSTs', async () => {
    const c = client()
    const before = seen.filter((s) => s.url === '/slow').length
    const [a, b] = await Promise.all([c.get('/slow'), c.get('/slow')])
    expect(a).toEqual({ n: 1 })
    expect(b).toBe(a)
    expect(seen.filter((s) => s.url === '/slow').length).toBe(before + 1)
    await c.get('/slow')
    expect(seen.filter((s) => s.url === '/slow').length).toBe(before + 2)
    await Promise.all([c.request('/slow', { body: {} }), c.request('/slow', { body: {} })])
    expect(seen.filter((s) => s.url === '/slow').length).toBe(before + 4)
  })

  it('rejects non-2xx with the decoded body and status', async () => {
    const err = (await client()
      .get('/bad')
      .catch((e) => e)) as ApiError
    expect(err).toBeInstanceOf(ApiError)
    expect(err.status).toBe(400)
    expect(err.body).toEqual({ error: 'bad_request', message: 'Bad id' })
    expect(err.message).toBe('Bad id')
    expect(err.code).toBe('bad_request')
    const crash = (await client()
      .get('/crash')
      .catch((e) => e)) as ApiError
    expect(crash.status).toBe(502)
    expect(crash.body).toBe('<h1>Bad gateway</h1>')
  })

  it('signals session expiry for a 401, but not for a failed login', async () => {
    const c = client()
    const heard: string[] = []
    c.onUnauthorized((url) => heard.push(url))
    await expect(
      c.request('/api/auth/login', { body: { username: 'a', password: 'b' } }),
    ).rejects.toMatchObject({
      status: 401,
    })
    expect(heard).toEqual([])
    await expect(c.get('/api/users')).rejects.toMatchObject({ status: 401 })
    expect(heard).toEqual([`${base}/api/users`])
  })
})
