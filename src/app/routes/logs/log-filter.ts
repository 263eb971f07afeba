/**
 * The log screens' filter as pure parts: which levels, a case-insensitive search over the line and its
 * context, and an inclusive time range given as local date-time inputs. Log times are ISO UTC strings,
 * so a range becomes a pair of ISO bounds for the [channel+time] index.
 */
import { LOG_LEVELS, type LogLevel } from '../../../shared/constants'

export interface LogFilter {
  levels: ReadonlySet<LogLevel>
  search: string
  /** `datetime-local` values (local time), '' for open. */
  from: string
  to: string
}

export const ALL_LEVELS: ReadonlySet<LogLevel> = new Set(LOG_LEVELS)
export const EMPTY_LOG_FILTER: LogFilter = { levels: ALL_LEVELS, search: '', from: '', to: '' }

export interface LogLine {
  time: string
  level: string
  log: string
  ctx: unknown
}

/** A local date-time input value → ISO UTC, or null when empty or unreadable. */
export function localToIso(value: string, end = false): string | null {
  if (!value) return null
  const d = new Date(value)
  if (Number.isNaN(d.getTime())) return null
  // A minute-precision "to" includes the whole minute.
  if (end && value.length <= 16) d.setSeconds(59, 999)
  return d.toISOString()
}

export function timeBounds(f: LogFilter): { lower: string | null; upper: string | null } {
  return { lower: localToIso(f.from), upper: localToIso(f.to, true) }
}

/** The per-line test beyond the time range (which the index applies), or null when it keeps all. */
export function lineMatcher(f: LogFilter): ((line: LogLine) => boolean) | null {
  const needle = f.search.trim().toLowerCase()
  const allLevels = LOG_LEVELS.every((l) => f.levels.has(l))
  if (!needle && allLevels) return null
  return (line) => {
    if (!allLevels && !f.levels.has(line.level as LogLevel)) return false
    if (!needle) return true
    if (line.log.toLowerCase().includes(needle)) return true
    return line.ctx != null && JSON.stringify(line.ctx).toLowerCase().includes(needle)
  }
}

export const logFilterKey = (f: LogFilter): string =>
  JSON.stringify([[...f.levels].sort(), f.search.trim(), f.from, f.to])

export function toggleLevel(levels: ReadonlySet<LogLevel>, level: LogLevel): Set<LogLevel> {
  const next = new Set(levels)
  if (next.has(level)) next.delete(level)
  else next.add(level)
  return next
}
