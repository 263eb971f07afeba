/**
 * How an action's trigger reads in the list and the editor: the badge, one line saying what starts it
 * (the schedule in words via cronstrue, the collection and operations, or the HTTP route), and when a
 * CRON action runs next. Also the one "reachable" test for server-only buttons.
 */
import { formatDistance } from 'date-fns'
import type { SyncDoc } from '../../../db/types'
import { isHttp } from './action-form'
import { cronPreview, cronWords } from './cron'

type Trigger = { type?: string; cron?: string; timezone?: string; collection?: string; operations?: string[] }

export const triggerOf = (doc: SyncDoc | undefined): Trigger => (doc?.trigger ?? {}) as Trigger

export const runPath = (id: string) => `/api/actions/run/${encodeURIComponent(id)}`

/** What starts the action, in words. */
export function triggerText(doc: SyncDoc): string {
  const t = triggerOf(doc)
  if (t.type === 'CRON') return `${cronWords(t.cron ?? '')}${t.timezone ? ` (${t.timezone})` : ''}`
  if (t.type === 'EVENT') return `${(t.operations ?? []).join(', ')} in ${t.collection ?? '?'}`
  if (t.type && isHttp(t.type)) return `${t.type} ${runPath(doc._id)}`
  return '—'
}

/** "in 4 minutes" for a CRON action, "on request" / "on change" for the others. */
export function nextRunText(doc: SyncDoc, now: Date): { words: string; at?: Date } {
  const t = triggerOf(doc)
  if (doc.enabled === false) return { words: 'never (disabled)' }
  if (t.type === 'EVENT') return { words: 'on the next change' }
  if (t.type !== 'CRON') return { words: 'on request' }
  const preview = cronPreview(t.cron ?? '', t.timezone ?? '', now, 1)
  if (!preview.ok || !preview.next[0]) return { words: '—' }
  return { words: formatDistance(preview.next[0], now, { addSuffix: true }), at: preview.next[0] }
}

export function TriggerBadge({ type }: { type: string | undefined }) {
  return <span className={`kind-badge trigger-${(type ?? '').toLowerCase()}`}>{type ?? '?'}</span>
}
