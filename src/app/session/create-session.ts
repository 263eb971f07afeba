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
 *
 * The other tabs of the browser hear of every login, logout and expiry (session-channel.ts): a login
 * of the same user (or one made while a tab has no session) is adopted there, so every tab's sync
 * engine gets the new token; a logout logs every tab of that user out.
 *
 * A factory over its ports (everything it reaches outside itself), so tests build one with in-memory
 * storage and a fake fetch instead of mocking modules; session.ts builds the console's one instance.
 */
import { TOAST_COLOURS } from '../../shared/constants'
import { SHELL_TEXT, UI_TEXT } from '../../shared/texts'
import type { ApiClient } from '../api/client'
import type { ToastRequest } from '../notify'
import type { SessionChannel, SessionMessage } from './session-channel'

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

/** The keys of the local state the session owns. */
export type SessionKey = 'token' | 'session'

export interface SessionPorts {
  /** The HTTP client: its bearer header, the session and logout calls, and its 401 signal. */
  api: Pick<ApiClient, 'setToken' | 'get' | 'request' | 'onUnauthorized'>
  /** Where the token and the last session outlive a reload (local-state.ts); `read` is synchronous. */
  storage: {
    read<T>(key: SessionKey): T | undefined
    /** Resolves once stored, never rejects; null removes. */
    write(key: SessionKey, value: unknown): Promise<void>
  }
  /** The other tabs of the browser (session-channel.ts). */
  channel: Pick<SessionChannel, 'announce' | 'onMessage'>
  /** Raises a toast (notify.ts). */
  notify: (toast: ToastRequest) => void
  /** Calls back once when the browser's link returns (`online`); never where there is no browser. */
  onceOnline: (callback: () => void) => void
  /** Resolves after `ms` (how long logout waits for a task). */
  wait: (ms: number) => Promise<unknown>
}

type Listener = () => void
type LogoutTask = () => Promise<void>

/** How long logout waits for a task (e.g. a push unsubscribe against a hanging server). */
const LOGOUT_TASK_TIMEOUT_MS = 5000

export function normalizeUser(user: CurrentUser | string): CurrentUser {
  return typeof user === 'string' ? { _id: user } : user
}

export function createSession(ports: SessionPorts) {
  const { api, storage, channel } = ports
  const listeners = new Set<Listener>()
  const eventListeners = new Map<SessionEvent, Set<() => void>>()

  let state: SessionState = { status: 'anonymous', token: null, user: null, permissions: [] }

  function setState(next: Partial<SessionState>): void {
    state = { ...state, ...next }
    for (const l of listeners) l()
  }

  const sessionStore = {
    get: (): SessionState => state,
    subscribe(listener: Listener): () => void {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }

  function onSessionEvent(event: SessionEvent, listener: () => void): () => void {
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

  function applySession(res: SessionResponse): void {
    const user = normalizeUser(res.user)
    const permissions = res.permissions ?? []
    storage.write('session', { user, permissions })
    setState({ status: 'authenticated', user, permissions })
  }

  /** Fetches the session for the current token; a 401 is handled by the expiry listener below. */
  async function refreshSession(): Promise<void> {
    const token = state.token
    if (!token) return
    try {
      const res = await api.get<SessionResponse>('/api/auth/session')
      if (state.token === token) applySession(res)
    } catch (e) {
      // Offline or server down: keep the cached session (offline-first); retry when the link returns.
      if ((e as { status?: number }).status === undefined) ports.onceOnline(() => void refreshSession())
    }
  }

  /** SPEC §4: the token becomes the bearer header, is persisted, and a session fetch follows. */
  async function setToken(
    token: string,
    known?: SessionResponse,
    opts: { announce?: boolean } = {},
  ): Promise<void> {
    api.setToken(token)
    setState({ token })
    // Stored before the session counts as open: a reload within ms of logging in found no token and
    // landed back on the login page (issue 11). The session is cached with it for an offline reload.
    await Promise.all([
      storage.write('token', token),
      known?.user
        ? storage.write('session', { user: normalizeUser(known.user), permissions: known.permissions ?? [] })
        : null,
    ])
    if (state.token !== token) return
    // The login answer carries the user and permissions: 'login' goes out now, so the sync engine and
    // the websocket start alongside the session fetch instead of after it (issue 20, initial mirror).
    const early = known?.user ? known : null
    if (early) {
      applySession(early)
      emit('login')
    }
    await refreshSession()
    if (state.token !== token || state.status !== 'authenticated') return
    if (!early) emit('login')
    if (opts.announce !== false && state.user) {
      channel.announce({ type: 'login', token, user: state.user, permissions: [...state.permissions] })
    }
  }

  /** Drops the token and user; local data stays (used by expiry and by logout before its cache clear). */
  function dropSession(): void {
    api.setToken(null)
    storage.write('token', null)
    storage.write('session', null)
    setState({ status: 'anonymous', token: null, user: null, permissions: [] })
  }

  const beforeLogoutTasks = new Set<LogoutTask>()

  /**
   * Work that must happen on an explicit logout while the token is still valid (removing this browser's
   * push subscription on the server). Tasks run in parallel; a failing or slow one never blocks logout.
   */
  function beforeLogout(task: LogoutTask): () => void {
    beforeLogoutTasks.add(task)
    return () => beforeLogoutTasks.delete(task)
  }

  function runBeforeLogout(): Promise<unknown> {
    return Promise.all(
      [...beforeLogoutTasks].map((task) =>
        Promise.race([
          task().catch((e) => console.warn('before logout', e)),
          ports.wait(LOGOUT_TASK_TIMEOUT_MS),
        ]),
      ),
    )
  }

  /** Set while an explicit logout runs: a 401 met meanwhile (the revoked token) is no expiry. */
  let loggingOut = false

  async function logout(): Promise<void> {
    const user = state.user?._id
    loggingOut = true
    try {
      if (state.token) await runBeforeLogout()
      // Other tabs are told before the token is revoked: they log out (and stop their engines) instead
      // of meeting the revoked token, which would read as an expiry there.
      if (user) channel.announce({ type: 'logout', user })
      if (state.token) {
        // Best effort: the server forgets the session; the console logs out even when offline.
        await api.request('/api/auth/logout', { method: 'DELETE' }).catch(() => {})
      }
    } finally {
      loggingOut = false
    }
    // Always, even if something ended the session meanwhile: 'logout' is what deletes the local data.
    dropSession()
    emit('logout')
  }

  /**
   * The logout another tab made: drop this tab's session and caches without calling the server, whose
   * 401 for the revoked token would read as an expiry. Idempotent: a tab can hear of one logout twice
   * (the session message and the database deletion).
   */
  function logoutLocally(): void {
    if (state.status === 'anonymous' && !state.token) return
    dropSession()
    emit('logout')
  }

  /** SPEC §4/§8: a 401 outside login/password/totp. */
  function expireSession(opts: { announce?: boolean } = {}): void {
    if (loggingOut || (!state.token && state.status === 'anonymous')) return
    const token = state.token
    dropSession()
    emit('expired')
    ports.notify({ message: UI_TEXT.sessionExpired, colour: TOAST_COLOURS.warning })
    if (token && opts.announce !== false) channel.announce({ type: 'expired', token })
  }

  /** What another tab's session change means here (session-channel.ts). */
  function onOtherTab(message: SessionMessage): void {
    if (message.type === 'login') {
      if (message.token === state.token) return
      // Same user: adopt the fresh token (the engine gets it and resumes). No session here: log in too.
      // A tab working as another user keeps its own session.
      const mine = state.status === 'authenticated' ? state.user?._id : null
      if (mine && mine !== message.user._id) return
      void setToken(message.token, message, { announce: false })
    } else if (message.type === 'logout') {
      if (state.status === 'authenticated' && state.user?._id === message.user) logoutLocally()
    } else if (message.type === 'expired') {
      if (state.token === message.token) expireSession({ announce: false })
    }
  }

  /**
   * A stored token but no cached session, and the server cannot be asked: the login page, saying why,
   * instead of waiting on "Connecting to the server…". The token stays stored, and the session is
   * restored by itself when the connection returns (unless someone logged in meanwhile).
   */
  function waitForConnection(token: string): void {
    api.setToken(null)
    setState({ status: 'anonymous', token: null, user: null, permissions: [] })
    ports.notify({ message: SHELL_TEXT.offlineNoSession, colour: TOAST_COLOURS.warning })
    ports.onceOnline(() => {
      if (state.status !== 'anonymous' || storage.read<string>('token') !== token) return
      void restoreFromServer(token)
    })
  }

  async function restoreFromServer(token: string): Promise<void> {
    api.setToken(token)
    setState({ status: 'restoring', token })
    await refreshSession()
    // Another login or an expiry (401) took over meanwhile: nothing left to do here.
    if (state.token !== token) return
    if (state.status === 'authenticated') emit('login')
    else waitForConnection(token)
  }

  /** Restores the stored token and cached session (after preloadLocal) and revalidates it. */
  function restoreSession(): void {
    api.onUnauthorized(() => expireSession())
    channel.onMessage(onOtherTab)
    const token = storage.read<string>('token')
    if (!token) {
      setState({ status: 'anonymous' })
      return
    }
    api.setToken(token)
    const cached = storage.read<{ user: CurrentUser; permissions: string[] }>('session')
    if (cached?.user) {
      setState({ status: 'authenticated', token, user: cached.user, permissions: cached.permissions ?? [] })
      emit('login')
      void refreshSession()
    } else {
      void restoreFromServer(token)
    }
  }

  return {
    sessionStore,
    onSessionEvent,
    refreshSession,
    setToken,
    beforeLogout,
    logout,
    logoutLocally,
    expireSession,
    restoreSession,
  }
}

export type Session = ReturnType<typeof createSession>
