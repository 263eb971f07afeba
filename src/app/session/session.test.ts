/**
 * Issue 11: a reload within ~50 ms of logging in landed back on the login page, because the session
 * counted as open (and the console navigated on) before the token reached IndexedDB. Here the local
 * store's write is held: the session must stay closed until the token is stored.
 */
import { describe, expect, it, vi } from 'vitest'

const stored = new Map<string, unknown>()
let releaseWrites: () => void = () => {}
const writesHeld = new Promise<void>((r) => {
  releaseWrites = r
})

vi.mock('../local-state', () => ({
  readLocal: (key: string) => stored.get(key),
  writeLocal: async (key: string, value: unknown) => {
    await writesHeld
    stored.set(key, value)
  },
}))
vi.mock('../api/client', () => ({
  api: {
    setToken: () => {},
    get: async () => ({ user: { _id: 'ada' }, permissions: ['users:r'] }),
    onUnauthorized: () => () => {},
  },
}))
vi.mock('./session-channel', () => ({ announce: () => {}, onSessionMessage: () => () => {} }))
vi.mock('../notify', () => ({ notify: { warning: () => {}, error: () => {}, info: () => {} } }))

describe('setToken (login)', () => {
  it('opens the session only once the token is stored', async () => {
    const { setToken, sessionStore } = await import('./session')
    const done = setToken('tok-1', { user: { _id: 'ada' }, permissions: ['users:r'] } as never)
    await new Promise((r) => setTimeout(r, 20))
    expect(sessionStore.get().status).not.toBe('authenticated')
    expect(stored.get('token')).toBeUndefined()
    releaseWrites()
    await done
    expect(stored.get('token')).toBe('tok-1')
    expect(sessionStore.get().status).toBe('authenticated')
  })
})
