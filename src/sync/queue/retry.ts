/**
 * The one retry policy of the client offline queues (the outbox runs on the same pass loop but keeps its own
 * verdicts in replay.ts: a refusal there goes to the conflict inbox, and its backoff is jittered):
 * what an answer means for a queued request, named, and how long to wait before the next try.
 *
 * - done: 2xx;
 * - retry, with its reason: `offline` (no answer at all), `timeout` (our timeout or 408), `server`
 *   (5xx), `throttled` (429, with the server's Retry-After when it gave one), `auth` (401 to a request
 *   made with a user's token: the next login sends it);
 * - refused: any other 4xx (and a 401 to a request made without a token). Permanent: the same request
 *   would be refused again, so it is never retried by itself; the queue shows or drops it.
 */

export type RetryReason = 'offline' | 'timeout' | 'server' | 'throttled' | 'auth'

export type Verdict =
  | { kind: 'done' }
  | { kind: 'retry'; reason: RetryReason; retryAfterMs?: number }
  | { kind: 'refused' }

export interface StatusContext {
  /** The request carried a user's token, so a 401 means "log in again", not "never". */
  withToken: boolean
  /** The answer's Retry-After header. */
  retryAfter?: string | null
}

export function verdictOfStatus(status: number, context: StatusContext): Verdict {
  if (status >= 200 && status < 300) return { kind: 'done' }
  if (status === 401) return context.withToken ? { kind: 'retry', reason: 'auth' } : { kind: 'refused' }
  if (status === 408) return { kind: 'retry', reason: 'timeout' }
  if (status === 429) {
    const retryAfterMs = retryAfterToMs(context.retryAfter ?? null)
    return retryAfterMs === null
      ? { kind: 'retry', reason: 'throttled' }
      : { kind: 'retry', reason: 'throttled', retryAfterMs }
  }
  if (status >= 500) return { kind: 'retry', reason: 'server' }
  return { kind: 'refused' }
}

/** A Retry-After in seconds, as milliseconds; null for none or an HTTP date (not sent by our server). */
export function retryAfterToMs(header: string | null): number | null {
  return header && /^\d+$/.test(header) ? Number(header) * 1000 : null
}

/** The wait before try `attempt` + 1 (0: after the first failure). */
export type Backoff = (attempt: number) => number

/** base, 2·base, 4·base … up to cap. */
export const exponentialBackoff =
  (baseMs: number, capMs: number): Backoff =>
  (attempt) =>
    Math.min(capMs, baseMs * 2 ** Math.min(Math.max(attempt, 0), 30))

/** The listed waits in turn, then the last one for ever. */
export const steppedBackoff =
  (stepsMs: readonly number[]): Backoff =>
  (attempt) =>
    stepsMs[Math.min(Math.max(attempt, 0), stepsMs.length - 1)]!
