/**
 * Ports for a session under test (create-session.ts): the real API client over the test's fetch, the
 * test's storage (in memory by default), a real session channel under a name of the test's own (so
 * another end of it stands for another tab), and no toasts, no browser `online` event.
 */
import { createApiClient } from '../api/client'
import type { SessionKey, SessionPorts } from './create-session'
import { createSessionChannel, type SessionChannel } from './session-channel'

export const TEST_API_BASE = 'http://console.test'

/** A JSON answer, as the server sends it. */
export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
}

export function memoryStorage(): SessionPorts['storage'] & { stored: Map<SessionKey, unknown> } {
  const stored = new Map<SessionKey, unknown>()
  return {
    stored,
    read: <T>(key: SessionKey) => stored.get(key) as T | undefined,
    async write(key, value) {
      if (value === null || value === undefined) stored.delete(key)
      else stored.set(key, value)
    },
  }
}

export function testSessionPorts(opts: {
  fetch: typeof fetch
  channel: string
  storage?: SessionPorts['storage']
}): SessionPorts & { channel: SessionChannel } {
  return {
    api: createApiClient({ fetch: opts.fetch, base: () => TEST_API_BASE }),
    storage: opts.storage ?? memoryStorage(),
    channel: createSessionChannel(opts.channel),
    notify: () => {},
    onceOnline: () => {},
    wait: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  }
}
