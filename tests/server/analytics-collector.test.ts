/**
 * What the browser collector relies on (docs/contributing/analytics.md): a POST repeated with the same
 * Idempotency-Key (a retry from the offline queue whose first answer was lost) stores one visit and
 * answers the same id; and the two collector routes answer cross-origin callers — a Web Server page
 * runs sandboxed with origin "null" — with CORS `*` on the preflight and on the response, while the
 * rest of the API keeps its own CORS list.
 */
import { describe, expect, it } from 'vitest'
import type { VisitList } from '../../src/shared/analytics'
import { suiteServer } from '../helpers/suite-server'
import { record } from './analytics-cases'

const server = suiteServer()

const visitsOf = async (visitor: string) => {
  const from = Date.now() - 86_400_000
  const res = await server.api(`/api/analytics/visits?visitor=${visitor}&from=${from}`, {
    token: server.admin,
  })
  expect(res.status).toBe(200)
  return (res.body as VisitList).visits
}

describe('collector POST idempotency', () => {
  it('a repeat with the same Idempotency-Key stores nothing and answers the same id', async () => {
    const body = record({ 9: 'visitor-idem-1' })
    const headers = { 'idempotency-key': 'local-visit-key-0001' }
    const first = await server.api('/api/analytics', { json: body, headers })
    const again = await server.api('/api/analytics', { json: body, headers })
    expect(first.status).toBe(201)
    expect(again.status).toBeLessThan(300)
    expect((again.body as { id: string }).id).toBe((first.body as { id: string }).id)
    expect(await visitsOf('visitor-idem-1')).toHaveLength(1)
    // Another key is another visit.
    await server.api('/api/analytics', { json: body, headers: { 'idempotency-key': 'local-visit-key-0002' } })
    expect(await visitsOf('visitor-idem-1')).toHaveLength(2)
  })

  it('concurrent repeats store one visit', async () => {
    const body = record({ 9: 'visitor-idem-2' })
    const headers = { 'idempotency-key': 'local-visit-key-0003' }
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => server.api('/api/analytics', { json: body, headers })),
    )
    expect(new Set(answers.map((a) => (a.body as { id: string }).id)).size).toBe(1)
    expect(await visitsOf('visitor-idem-2')).toHaveLength(1)
  })
})

describe('collector CORS', () => {
  it('answers the preflight of an opaque-origin page for POST and PATCH', async () => {
    for (const [path, method] of [
      ['/api/analytics', 'POST'],
      ['/api/analytics/0123456789abcdef0123456789abcdef', 'PATCH'],
    ] as const) {
      const res = await fetch(`${server.url}${path}`, {
        method: 'OPTIONS',
        headers: {
          origin: 'null',
          'access-control-request-method': method,
          'access-control-request-headers': 'content-type,idempotency-key',
        },
      })
      expect(res.status).toBeLessThan(300)
      expect(res.headers.get('access-control-allow-origin')).toBe('*')
      expect(res.headers.get('access-control-allow-methods')).toContain(method)
      expect(res.headers.get('access-control-allow-headers')).toContain('idempotency-key')
      expect(res.headers.get('access-control-allow-credentials')).toBeNull()
    }
  })

  it('the POST itself carries Access-Control-Allow-Origin: *', async () => {
    const res = await server.api('/api/analytics', {
      json: record(),
      headers: { origin: 'https://site.example' },
    })
    expect(res.status).toBe(201)
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
  })

  it('other API routes keep their CORS list', async () => {
    const res = await fetch(`${server.url}/api/analytics/summary`, {
      method: 'OPTIONS',
      headers: { origin: 'https://site.example', 'access-control-request-method': 'GET' },
    })
    expect(res.headers.get('access-control-allow-origin')).not.toBe('*')
    expect(res.headers.get('access-control-allow-origin')).not.toBe('https://site.example')
  })
})
