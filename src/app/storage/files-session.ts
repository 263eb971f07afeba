/**
 * The files database of whoever is logged in: opened on first use, another one when the user or the
 * server changes. The queue keeps queued uploads across a logout (they belong to that user and go out
 * at their next login); kept-offline copies are dropped at logout, like the mirror, so the next person
 * on a shared browser cannot open them.
 */
import { useSyncExternalStore } from 'react'
import { STORAGE_QUEUE_TEXT } from '../../shared/texts'
import { FilesDb, filesDatabaseName } from '../../sync/files/files-db'
import { api } from '../api/client'
import { beforeLogout, sessionStore } from '../session/session'

let current: { name: string; db: FilesDb } | null = null

function nameFor(user: string | undefined): string | null {
  return user ? filesDatabaseName(api.base(), user) : null
}

export function currentFilesDb(): FilesDb | null {
  const name = nameFor(sessionStore.get().user?._id)
  if (!name) return null
  if (current?.name !== name) {
    current?.db.close()
    current = { name, db: new FilesDb(name) }
  }
  return current.db
}

export function requireFilesDb(): FilesDb {
  const db = currentFilesDb()
  if (!db) throw new Error(STORAGE_QUEUE_TEXT.notLoggedIn)
  return db
}

const userId = () => sessionStore.get().user?._id ?? null

/** The files database for React: null while logged out; a new one after a user change. */
export function useFilesDb(): FilesDb | null {
  const user = useSyncExternalStore(sessionStore.subscribe, userId, userId)
  return user ? currentFilesDb() : null
}

export function senderNow(): { fetch: typeof fetch; base: string; token: string | null } {
  return { fetch: (...a) => globalThis.fetch(...a), base: api.base(), token: api.getToken() }
}

let wired = false
/** Drops the kept copies of the user who logs out, while their session still names the database. */
export function wireLogoutCleanup(): void {
  if (wired) return
  wired = true
  beforeLogout(async () => {
    await currentFilesDb()?.kept.clear()
  })
}
