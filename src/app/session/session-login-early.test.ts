/**
 * Issue 20 (initial mirror): a login whose answer carries the user and permissions announces 'login'
 * at once, so the sync engine and the websocket start alongside the session fetch that follows
 * (SPEC §4), not after it. A token without a known session (restored, hosted) still waits for it.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { createSession } from './create-session'
import { jsonResponse, testSessionPorts } from './test-ports'

let releaseSession: () => void = () => {}
const sessionFetches: string[] = []

/** The server's session call, held until the test releases it. */
const heldFetch: typeof fetch = async (input) => {
  sessionFetches.push(new URL(String(input)).pathname)
  await new Promise<void>((r) => {
    releaseSession = r
  })
  return jsonResponse({ user: { _id: 'ada' }, permissions: ['users:r'] })
}

const settle = () => new Promise((r) => setTimeout(r, 20))
const opened: { close(): void }[] = []

function session() {
  const ports = testSessionPorts({ fetch: heldFetch, channel: 'session-test-login-early' })
  opened.push(ports.channel)
  return createSession(ports)
}

afterEach(() => {
  for (const channel of opened.splice(0)) channel.close()
})

describe('setToken and the login event', () => {
  it('emits login before the session fetch answers when the login answer carries the session', async () => {
    const { onSessionEvent, setToken, sessionStore } = session()
    const logins: string[] = []
    const off = onSessionEvent('login', () => logins.push(sessionStore.get().user?._id ?? '?'))
    const done = setToken('tok-1', { user: { _id: 'ada' }, permissions: ['users:r'] })
    await settle()
    expect(sessionFetches).toEqual(['/api/auth/session'])
    expect(logins).toEqual(['ada'])
    releaseSession()
    await done
    expect(logins).toEqual(['ada']) // once, not again after the fetch
    off()
  })

  it('waits for the session fetch when only a token is known', async () => {
    const { onSessionEvent, setToken } = session()
    const logins: number[] = []
    const off = onSessionEvent('login', () => logins.push(1))
    const done = setToken('tok-2')
    await settle()
    expect(logins).toEqual([])
    releaseSession()
    await done
    expect(logins).toEqual([1])
    off()
  })
})
