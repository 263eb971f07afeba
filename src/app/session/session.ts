/**
 * The login session (SPEC §4): token, current user and permissions, as a tiny external store that React
 * reads with useSyncExternalStore. Setting a token makes it the client's bearer header, persists it
 * locally and fetches the session. The last session is cached too, so a reload works offline.
 *
 * Other parts of the console react through `onSessionEvent`:
 *   'login'    a user has logged in (or a stored session was restored)
 *   'logout'   the user chose to log out: drop caches (the assistant chat, synced data, ...)
 *   'expired'  a 401 outside login/password/totp: clear the assistant chat and toasts. Only the token
 *              and user are dropped; locally stored and queued data stays for the next login.
 */
import { TOAST_COLOURS } from '../../shared/constants'
import { UI_TEXT } from '../../shared/messages'
import { api } from '../api/client'
import { readLocal, writeLocal } from '../local-state'
import { notify } from '../notify'

export interface CurrentUser {
  _id: string
  name?: string
  email?: string
  /** Truthy when the user has uploaded an image (served at /api/users/{id}/image). */
  image?: unknown
  [field: string]: unknown
}

export type SessionStatus = 'restoring' | 'anonymous' | 'authenticated'

export interface SessionState {
  status: SessionStatus
  token: string | null
  user: CurrentUser | null
  permissions: readonly string[]
}

export interface SessionResponse {
  token?: string
  user: CurrentUser | string
  permissions?: string[]
}

export type SessionEvent = 'login' | 'logout' | 'expired'

type Listener = () => void
const listeners = new Set<Listener>()
const eventListeners = new Map<SessionEvent, Set<() => void>>()

let state: SessionState = { status: 'anonymous', token: null, user: null, permissions: [] }

function setState(next: Partial<SessionState>): void {
  state = { ...state, ...next }
  for (const l of listeners) l()
}

export const sessionStore = {
  get: (): SessionState => state,
  subscribe(listener: Listener): () => void {
    listeners.add(listener)
    return () => listeners.delete(listener)
  },
}

export function onSessionEvent(event: SessionEvent, listener: () => void): () => void {
  let set = eventListeners.get(event)
  if (!set) {
    set = new Set()
    eventListeners.set(event, set)
  }
  set.add(listener)
  return () => set.delete(listener)
}

function emit(event: SessionEvent): void {
  for (const l of eventListeners.get(event) ?? []) {
    try {
      l()
    } catch (e) {
      console.error(e)
    }
  }
}

export function normalizeUser(user: CurrentUser | string): CurrentUser {
  return typeof user === 'string' ? { _id: user } : user
}

function applySession(res: SessionResponse): void {
  const user = normalizeUser(res.user)
  const permissions = res.permissions ?? []
  writeLocal('session', { user, permissions })
  setState({ status: 'authenticated', user, permissions })
}

/** Fetches the session for the current token; a 401 is handled by the expiry listener below. */
export async function refreshSession(): Promise<void> {
  const token = state.token
  if (!token) return
  try {
    const res = await api.get<SessionResponse>('/api/auth/session')
    if (state.token === token) applySession(res)
  } catch (e) {
    // Offline or server down: keep the cached session (offline-first); retry when the link returns.
    if ((e as { status?: number }).status === undefined && typeof window !== 'undefined') {
      window.addEventListener('online', () => void refreshSession(), { once: true })
    }
  }
}

/** SPEC §4: the token becomes the bearer header, is persisted, and a session fetch follows. */
export async function setToken(token: string, known?: SessionResponse): Promise<void> {
  api.setToken(token)
  writeLocal('token', token)
  setState({ token })
  if (known?.user) applySession(known)
  await refreshSession()
  if (state.token === token && state.status === 'authenticated') emit('login')
}

/** Drops the token and user; local data stays (used by expiry and by logout before its cache clear). */
function dropSession(): void {
  api.setToken(null)
  writeLocal('token', null)
  writeLocal('session', null)
  setState({ status: 'anonymous', token: null, user: null, permissions: [] })
}

export async function logout(): Promise<void> {
  if (state.token) {
    // Best effort: the server forgets the session; the console logs out even when offline.
    await api.request('/api/auth/logout', { method: 'DELETE' }).catch(() => {})
  }
  dropSession()
  emit('logout')
}

/** SPEC §4/§8: a 401 outside login/password/totp. */
export function expireSession(): void {
  if (!state.token && state.status === 'anonymous') return
  dropSession()
  emit('expired')
  notify({ message: UI_TEXT.sessionExpired, colour: TOAST_COLOURS.warning })
}

/** Restores the stored token and cached session (after preloadLocal) and revalidates it. */
export function restoreSession(): void {
  api.onUnauthorized(() => expireSession())
  const token = readLocal<string>('token')
  if (!token) {
    setState({ status: 'anonymous' })
    return
  }
  api.setToken(token)
  const cached = readLocal<{ user: CurrentUser; permissions: string[] }>('session')
  if (cached?.user) {
    setState({ status: 'authenticated', token, user: cached.user, permissions: cached.permissions ?? [] })
    emit('login')
    void refreshSession()
  } else {
    setState({ status: 'restoring', token })
    void refreshSession().then(() => {
      if (state.status === 'authenticated') emit('login')
    })
  }
}
