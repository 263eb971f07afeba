/**
 * The per-credential write budget of POST /api/logs/{channel} (LOG_WRITE_BUDGET_PER_MINUTE): lines and
 * bytes counted per login session (or API token) in fixed one-minute windows, counted BEFORE the write
 * so parallel requests cannot all slip under it. Per session rather than per user, so one runaway tab
 * does not silence the same user's other browser; per session rather than per IP, so colleagues behind
 * one proxy do not share it. Held in memory per instance, like the login limiter.
 */
import { LOG_WRITE_BUDGET_PER_MINUTE } from '../../shared/constants'

const WINDOW_MS = 60_000
/** Above this many tracked credentials, finished windows are swept so memory stays bounded. */
const SWEEP_ABOVE_KEYS = 10_000

interface Window {
  start: number
  lines: number
  bytes: number
}

export interface LogBudget {
  /** Counts the request and returns 0, or counts nothing and returns the milliseconds to wait. */
  take(key: string, lines: number, bytes: number): number
}

export function createLogBudget(
  budget: { lines: number; bytes: number } = LOG_WRITE_BUDGET_PER_MINUTE,
  now: () => number = Date.now,
): LogBudget {
  const windows = new Map<string, Window>()
  const sweep = (t: number) => {
    if (windows.size <= SWEEP_ABOVE_KEYS) return
    for (const [key, w] of windows) if (t - w.start >= WINDOW_MS) windows.delete(key)
  }
  return {
    take(key, lines, bytes) {
      const t = now()
      let w = windows.get(key)
      if (!w || t - w.start >= WINDOW_MS) {
        sweep(t)
        w = { start: t, lines: 0, bytes: 0 }
        windows.set(key, w)
      }
      // An empty window admits any one request the body limit allows, however large.
      const fresh = w.lines === 0 && w.bytes === 0
      if (!fresh && (w.lines + lines > budget.lines || w.bytes + bytes > budget.bytes)) {
        return w.start + WINDOW_MS - t
      }
      w.lines += lines
      w.bytes += bytes
      return 0
    },
  }
}
