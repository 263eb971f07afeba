/**
 * Binds the sync engine's life to the login session (docs/contributing/sync-console.md):
 *   login             → start the engine for (API origin, user); the same user again → setToken only
 *   expired (a 401)   → keep the engine and its database: queued work waits for the next login
 *   logout            → close the engine and delete the user's local database (the warning about
 *                       unsent changes is asked before logout, see logout.ts)
 * An engine that meets a 401 itself (the token was revoked while the page still held it) ends the
 * session the same way the API client does, so the user is asked to log in again.
 * Kept outside React as a small external store, like the session itself, so it is wired before the
 * first render and survives route changes.
 */

import { databaseName, MomentumDb } from '../../db/schema'
import { SYNC_UI_TEXT } from '../../shared/texts'
import { onServerBack } from '../../sync/server-back'
import { IDLE_STATUS, type SyncStatus } from '../../sync/status'
import { api } from '../api/client'
import { announceReachable, onServerReachable } from '../api/reachable'
import { outboxSyncOnGrowth, wireFocusReplay } from '../pwa/outbox-sync' // pwa: Background Sync
import { SYNC_POKE_EVENT } from '../pwa/registration'
import { expireSession, logoutLocally, onSessionEvent, sessionStore } from '../session/session'
import { type EngineClient, openEngineClient } from './engine-client'
import { deleteLocalDatabase, onDatabaseClosing } from './local-database'
import { requestPersistence } from './storage-info'

export interface SyncState {
  /** null while logged out or while the engine starts. */
  client: EngineClient | null
  /**
   * The page's own connection to the user's database: set as soon as the engine starts for a user,
   * before its worker answers, so a screen reads the local copy at once (an offline start renders its
   * first rows while the worker boots; issue 20). The same connection becomes `client.db`.
   */
  db: MomentumDb | null
  status: SyncStatus
  /** The engine could not start (IndexedDB unavailable, e.g. a private window of an old browser). */
  failure: string | null
}

let state: SyncState = { client: null, db: null, status: IDLE_STATUS, failure: null }
const listeners = new Set<() => void>()
interface Waiter {
  resolve(client: EngineClient): void
  reject(error: Error): void
}
const readyWaiters = new Set<Waiter>()

const settleWaiters = (settle: (w: Waiter) => void) => {
  const waiting = [...readyWaiters]
  readyWaiters.clear()
  for (const w of waiting) settle(w)
}

function setState(next: Partial<SyncState>): void {
  state = { ...state, ...next }
  for (const l of listeners) l()
  if (state.client) {
    const client = state.client
    settleWaiters((w) => w.resolve(client))
  } else if (state.failure) {
    const failure = new Error(state.failure)
    settleWaiters((w) => w.reject(failure))
  }
}

export const syncStore = {
  get: (): SyncState => state,
  subscribe(listener: () => void): () => void {
    listeners.add(listener)
    return () => listeners.delete(listener)
  },
}

/** The running engine, waiting for it while it starts (a write made during start-up is not lost). */
export function whenReady(): Promise<EngineClient> {
  if (state.client) return Promise.resolve(state.client)
  if (state.failure) return Promise.reject(new Error(state.failure))
  // Nobody logged in: a write now has no user to belong to, so it fails instead of waiting forever.
  if (sessionStore.get().status === 'anonymous') return Promise.reject(new Error(SYNC_UI_TEXT.notLoggedIn))
  return new Promise((resolve, reject) => readyWaiters.add({ resolve, reject }))
}

let unsubscribeStatus: (() => void) | null = null
let chain: Promise<unknown> = Promise.resolve()
/** Session changes are applied one at a time, in order: a fast logout → login must not interleave. */
const serial = (fn: () => Promise<void>) => {
  chain = chain.then(fn, fn).catch((e) => console.error('sync session', e))
  return chain
}

async function closeClient(): Promise<EngineClient | null> {
  const client = state.client
  unsubscribeStatus?.()
  unsubscribeStatus = null
  setState({ client: null, db: null, status: IDLE_STATUS })
  settleWaiters((w) => w.reject(new Error(SYNC_UI_TEXT.notLoggedIn)))
  if (client) await client.close().catch((e) => console.warn('closing the sync engine', e))
  return client
}

function onStatus(client: EngineClient, status: SyncStatus): void {
  if (state.client !== client) return
  setState({ status })
  // The engine's own 401: end the session when it was this very token, so the user logs in again;
  // after a new login the engine already has the new token and its status returns to ok.
  const session = sessionStore.get()
  if (status.auth === 'expired' && session.token && session.token === client.token()) expireSession()
}

/** Makes the engine match the session: called on login and at start-up. */
export function syncToSession(): Promise<unknown> {
  return serial(async () => {
    const { token, user, status } = sessionStore.get()
    if (status !== 'authenticated' || !token || !user) return
    const origin = api.base()
    const current = state.client
    if (current && current.user === user._id && current.origin === origin) {
      if (current.token() !== token) await current.setToken(token)
      return
    }
    // Another user or server: that engine stops, its data stays for when that user returns.
    if (current) await closeClient()
    // The page's connection opens alongside the worker, not after it: screens get it right away.
    const db = new MomentumDb(databaseName(origin, user._id))
    void db.open().catch(() => undefined) // a failure surfaces below, through openEngineClient
    setState({ db, failure: null })
    try {
      const client = await openEngineClient({ origin, user: user._id, token }, db)
      setState({ client, db: client.db, failure: null })
      unsubscribeStatus = client.subscribe((s) => onStatus(client, s))
      void requestPersistence()
    } catch (e) {
      db.close()
      setState({ db: null, failure: e instanceof Error ? e.message : String(e) })
    }
  })
}

/** Explicit logout: the local copy and the unsent changes of this user go (the user was warned). */
function onLogout(): Promise<unknown> {
  return serial(async () => {
    const client = await closeClient()
    if (client) await deleteLocalDatabase(client.database)
  })
}

let wired = false

/** Call once; idempotent. Picks up a session restored before it ran. */
export function wireSyncSession(): void {
  if (wired) return
  wired = true
  onSessionEvent('login', () => void syncToSession())
  onSessionEvent('logout', () => void onLogout())
  // 'expired' keeps everything: the engine pauses on its own 401 and resumes with setToken.
  void syncToSession()
  // Another tab logged this user out and deletes the database: let go of it and log out here too, as
  // the shared token is revoked and a tab left running would sync for a user who has left.
  onDatabaseClosing((database) => {
    if (state.client?.database !== database) return
    // session: logoutLocally, not logout(): the server already ended this token, and a second logout
    // call would meet its 401 and read as an expiry (a second, wrong toast).
    void serial(async () => void (await closeClient())).then(() => {
      if (sessionStore.get().status !== 'anonymous') logoutLocally()
    })
  })
  // The worker hears its own `online` event, but not the service worker's pokes (a data-change push,
  // Background Sync); both ask for a pull and a replay now.
  const kick = () => void state.client?.kick().catch(() => undefined)
  // The browser's `online`, and the page seeing the server answer again (reachable.ts).
  onServerReachable(kick)
  // The engine's own return (its stream reconnected after offline) wakes the page's other queues.
  onServerBack({ subscribe: (l) => syncStore.subscribe(() => l(state.status)) }, Date, () =>
    announceReachable(),
  )
  window.addEventListener(SYNC_POKE_EVENT, kick)
  // pwa (docs/contributing/pwa.md "Background Sync"): replay on focus / visibility too, and register the `outbox`
  // sync tag whenever the outbox grows, so the service worker sends it after the last tab closes.
  wireFocusReplay(kick)
  const onOutboxGrowth = outboxSyncOnGrowth()
  syncStore.subscribe(() => onOutboxGrowth(state.status.pending))
}
