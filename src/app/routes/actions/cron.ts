/**
 * A CRON trigger in words and its next times, computed in the browser with the same libraries the
 * server schedules with (croner; docs/operating/actions.md) and describes with (cronstrue), so the preview an
 * editor sees is what the server will do. Pure, no React.
 */
import { Cron } from 'croner'
import cronstrue from 'cronstrue'
import { ACTIONS_CONSOLE_TEXT } from '../../../shared/texts'

export type CronPreview =
  | { ok: true; words: string; next: Date[] }
  | { ok: false; field: 'cron' | 'timezone'; message: string }

/** Whether the browser knows this IANA time zone (the server's croner checks the same Intl data). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone })
    return true
  } catch {
    return false
  }
}

/** The schedule in words and its next `count` times after `now`, or what is wrong with it. */
export function cronPreview(cron: string, timezone: string, now = new Date(), count = 5): CronPreview {
  const zone = timezone.trim()
  if (zone && !isTimeZone(zone))
    return { ok: false, field: 'timezone', message: ACTIONS_CONSOLE_TEXT.timezoneBad }
  let next: Date[]
  try {
    const job = new Cron(cron.trim(), { paused: true, ...(zone ? { timezone: zone } : {}) })
    next = job.nextRuns(count, now)
  } catch (error) {
    return { ok: false, field: 'cron', message: ACTIONS_CONSOLE_TEXT.cronBad(messageOf(error)) }
  }
  return { ok: true, words: cronWords(cron), next }
}

/** "Every 5 minutes" for "*\/5 * * * *"; the expression itself when cronstrue cannot say it. */
export function cronWords(cron: string): string {
  try {
    return cronstrue.toString(cron.trim(), { use24HourTimeFormat: true, verbose: false })
  } catch {
    return cron
  }
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))
