/**
 * The console's one login session: createSession (create-session.ts, where the behaviour and its
 * reasons live) built from the real ports — the API client, the local state, the cross-tab channel,
 * the toasts and the browser's `online` event. Callers import its functions from here.
 */
import { api } from '../api/client'
import { readLocal, writeLocal } from '../local-state'
import { notify } from '../notify'
import { createSession } from './create-session'
import { createSessionChannel } from './session-channel'

export {
  type CurrentUser,
  normalizeUser,
  type SessionEvent,
  type SessionResponse,
  type SessionState,
  type SessionStatus,
} from './create-session'

const session = createSession({
  api,
  storage: { read: readLocal, write: writeLocal },
  channel: createSessionChannel(),
  notify,
  onceOnline(callback) {
    if (typeof window !== 'undefined') window.addEventListener('online', callback, { once: true })
  },
  wait: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
})

export const {
  sessionStore,
  onSessionEvent,
  refreshSession,
  setToken,
  beforeLogout,
  logout,
  logoutLocally,
  expireSession,
  restoreSession,
} = session
