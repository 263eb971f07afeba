import { expect, test } from 'vitest'
import { createApiClient } from './client'
import { announceReachable, onServerReachable, REACHABLE_SPACING_MS } from './reachable'

test('the API client announces the server once it answers after a network failure', async () => {
  let down = true
  let status = 200
  const client = createApiClient({
    base: () => 'http://server.invalid',
    fetch: async () => {
      if (down) throw new TypeError('Failed to fetch')
      return new Response('{}', { status, headers: { 'content-type': 'application/json' } })
    },
  })
  let woken = 0
  const off = onServerReachable(() => woken++)
  await client.get('/api/a').catch(() => undefined)
  expect(woken).toBe(0)
  down = false
  // A proxy's 502 is not the server.
  status = 502
  await client.get('/api/b').catch(() => undefined)
  expect(woken).toBe(0)
  // Any answer of the server, a refusal too, proves it is there: queued work goes now.
  status = 404
  await client.get('/api/c').catch(() => undefined)
  expect(woken).toBe(1)
  // Answers while it stays reachable wake nobody.
  status = 200
  await new Promise((r) => setTimeout(r, REACHABLE_SPACING_MS + 10))
  await client.get('/api/d')
  expect(woken).toBe(1)
  off()
})

test('announcements closer than the spacing are one', () => {
  let woken = 0
  const off = onServerReachable(() => woken++)
  const t = Date.now() + 10 * REACHABLE_SPACING_MS
  announceReachable(t)
  announceReachable(t + 10)
  announceReachable(t + REACHABLE_SPACING_MS)
  expect(woken).toBe(2)
  off()
})
