/**
 * The forms queue's database (issue 17, docs/using/forms.md "Offline"): queued submissions and the form
 * definitions a filler has seen, per origin (a link form's filler is logged out). Apart from the
 * queue's sending code, so the toolbar's count and the Sync panel read it without loading that.
 */
import Dexie, { type Table } from 'dexie'
import { useLiveQuery } from 'dexie-react-hooks'
import { FORMS_DB } from '../../db/databases'
import type { QueuedUpload } from './submission-files'

export interface QueuedSubmission {
  id: string
  form: string
  answers: Record<string, unknown>
  /** The user who filled it, null when logged out. */
  user: string | null
  createdAt: string
  seq: number
  status: 'waiting' | 'rejected'
  attempts: number
  notBefore: number
  lastError: string | null
  /** Its files in the Storage upload queue (submission-files.ts): it is sent once they all arrived. */
  uploads?: QueuedUpload[]
}

/** A definition a filler has seen, kept so the form opens with no network after a reload. */
export interface CachedForm {
  key: string
  def: Record<string, unknown>
}

class FormsQueueDb extends Dexie {
  submissions!: Table<QueuedSubmission, string>
  forms!: Table<CachedForm, string>
  constructor(name: string) {
    super(name)
    // Declared in src/db/databases.ts, with every other database of the console.
    for (const v of FORMS_DB.versions) this.version(v.version).stores(v.stores)
  }
}

let db: FormsQueueDb | null = null
export function formsDb(): FormsQueueDb {
  db ??= new FormsQueueDb(FORMS_DB.name(location.host))
  return db
}

/** The key a cached definition is stored under: per form and per viewer (a group form is not public). */
export const cacheKey = (form: string, user: string | null): string => `${user ?? ''}\u001f${form}`

/**
 * The queued submissions this viewer may see, oldest first, live: their own and those made logged out
 * on this device (for the toolbar's count and the Sync panel).
 */
export function useQueuedSubmissions(user: string | null): QueuedSubmission[] {
  return useLiveQuery(
    async () =>
      (await formsDb().submissions.orderBy('seq').toArray()).filter(
        (s) => s.user === null || s.user === user,
      ),
    [user],
    [],
  )
}
