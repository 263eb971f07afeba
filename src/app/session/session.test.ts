/**
 * Issue 11: a reload within ~50 ms of logging in landed back on the login page, because the session
 * counted as open (and the console navigated on) before the token reached IndexedDB. Here the local
 * store's write is held: the session must stay closed until the token is stored.
 */
import { describe, expect, it } from 'vitest'
import { createSession, type SessionKey } from './create-session'
import { createSessionChannel, type SessionMessage } from './session-channel'
import { jsonResponse, testSessionPorts } from './test-ports'

describe('setToken (login)', () => {
  it('opens the session only once the token is stored', async () => {
    const stored = new Map<SessionKey, unknown>()
    let releaseWrites: () => void = () => {}
    const writesHeld = new Promise<void>((r) => {
      releaseWrites = r
    })
    const ports = testSessionPorts({
      fetch: async () => jsonResponse({ user: { _id: 'ada' }, permissions: ['users:r'] }),
      channel: 'session-test-stored',
      storage: {
        read: <T>(key: SessionKey) => stored.get(key) as T | undefined,
        async write(key, value) {
          await writesHeld
          stored.set(key, value)
        },
      },
    })
    const otherTab = createSessionChannel('session-test-stored')
    const heard: SessionMessage[] = []
    otherTab.onMessage((m) => heard.push(m))
    const { setToken, sessionStore } = createSession(ports)

    const done = setToken('tok-1', { user: { _id: 'ada' }, permissions: ['users:r'] })
    await new Promise((r) => setTimeout(r, 20))
    expect(sessionStore.get().status).not.toBe('authenticated')
    expect(stored.get('token')).toBeUndefined()
    releaseWrites()
    await done
    expect(stored.get('token')).toBe('tok-1')
    expect(sessionStore.get().status).toBe('authenticated')
    // The other tabs hear of the login once the session is open (session-channel.ts).
    await new Promise((r) => setTimeout(r, 20))
    expect(heard).toEqual([{ type: 'login', token: 'tok-1', user: { _id: 'ada' }, permissions: ['users:r'] }])
    ports.channel.close()
    otherTab.close()
  })
})
