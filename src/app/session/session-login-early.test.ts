/**
 * Issue 20 (initial mirror): a login whose answer carries the user and permissions announces 'login'
 * at once, so the sync engine and the websocket start alongside the session fetch that follows
 * (SPEC §4), not after it. A token without a known session (restored, hosted) still waits for it.
 */
import { describe, expect, it, vi } from 'vitest'

let releaseSession: () => void = () => {}
const sessionFetches: string[] = []

vi.mock('../local-state', () => ({ readLocal: () => undefined, writeLocal: async () => {} }))
vi.mock('../api/client', () => ({
  api: {
    setToken: () => {},
    get: async (path: string) => {
      sessionFetches.push(path)
      await new Promise<void>((r) => {
        releaseSession = r
      })
      return { user: { _id: 'ada' }, permissions: ['users:r'] }
    },
    onUnauthorized: () => () => {},
  },
}))
vi.mock('./session-channel', () => ({ announce: () => {}, onSessionMessage: () => () => {} }))
vi.mock('../notify', () => ({ notify: { warning: () => {}, error: () => {}, info: () => {} } }))

const settle = () => new Promise((r) => setTimeout(r, 20))

describe('setToken and the login event', () => {
  it('emits login before the session fetch answers when the login answer carries the session', async () => {
    const { onSessionEvent, setToken, sessionStore } = await import('./session')
    const logins: string[] = []
    const off = onSessionEvent('login', () => logins.push(sessionStore.get().user?._id ?? '?'))
    const done = setToken('tok-1', { user: { _id: 'ada' }, permissions: ['users:r'] } as never)
    await settle()
    expect(sessionFetches).toEqual(['/api/auth/session'])
    expect(logins).toEqual(['ada'])
    releaseSession()
    await done
    expect(logins).toEqual(['ada']) // once, not again after the fetch
    off()
  })

  it('waits for the session fetch when only a token is known', async () => {
    const { onSessionEvent, setToken } = await import('./session')
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
