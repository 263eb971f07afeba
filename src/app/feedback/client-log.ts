/**
 * The client log channel (SPEC §8): console errors go to POST /api/logs/client as `{level, log, ctx}`.
 * Uploads are best effort: a failure is ignored silently (the spec says so, and reporting a failed
 * report would loop). A burst guard keeps an error loop from flooding the server: repeats of the entry
 * just sent are counted instead of sent, and at most CLIENT_LOG_BURST entries go out per window; what is
 * dropped is summed up in one WARN entry when the window ends.
 */
import { CLIENT_LOG_CHANNEL, type LogLevel } from '../../shared/constants'

export interface ClientLogEntry {
  level: LogLevel
  log: string
  ctx: Record<string, unknown>
}

export interface ClientLogPorts {
  send(entry: ClientLogEntry): Promise<unknown>
  now(): number
}

/** A real failure cascade rarely has more than a handful of distinct errors; more is a loop. */
export const CLIENT_LOG_BURST = 10
export const CLIENT_LOG_WINDOW_MS = 10_000
export const CLIENT_LOG_PATH = `/api/logs/${CLIENT_LOG_CHANNEL}`

export function createClientLog(ports: ClientLogPorts) {
  let windowStart = -Infinity
  let sentInWindow = 0
  let dropped = 0
  let last: { level: LogLevel; log: string } | null = null
  let repeats = 0

  const post = (entry: ClientLogEntry) => {
    ports.send(entry).catch(() => {
      // SPEC §8: log upload failures are silently ignored.
    })
  }

  return function log(entry: ClientLogEntry): void {
    const now = ports.now()
    if (now - windowStart >= CLIENT_LOG_WINDOW_MS) {
      if (dropped > 0 || repeats > 0) {
        post({
          level: 'WARN',
          log: `${dropped + repeats} client log entries were not sent (repeated or too many)`,
          ctx: { dropped, repeats, last: last?.log ?? null },
        })
      }
      windowStart = now
      sentInWindow = 0
      dropped = 0
      repeats = 0
      last = null
    }
    if (last && last.level === entry.level && last.log === entry.log) {
      repeats++
      return
    }
    if (sentInWindow >= CLIENT_LOG_BURST) {
      dropped++
      return
    }
    sentInWindow++
    last = { level: entry.level, log: entry.log }
    post(entry)
  }
}
