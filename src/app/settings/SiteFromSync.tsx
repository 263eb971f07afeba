/**
 * Keeps the site configuration and theme in step with the settings mirrored in the logged-in user's
 * local database: saving dark mode, colours or the title in Settings (a local write, visible at once)
 * or another admin's change arriving through sync re-themes the shell without a reload. Mounted once
 * as an App overlay, inside the sync provider; renders nothing. Logged out there is no database, and
 * the anonymous GET /api/settings of site.ts keeps the login page branded.
 */
import { useLiveQuery } from 'dexie-react-hooks'
import { useEffect } from 'react'
import { useSyncDb } from '../data/sync-context'
import { applyMirroredSettings } from './site'

export function SiteFromSync() {
  const db = useSyncDb()
  const rows = useLiveQuery(async () => (db ? db.settings.toArray() : undefined), [db])
  useEffect(() => {
    if (rows) applyMirroredSettings(rows)
  }, [rows])
  return null
}
