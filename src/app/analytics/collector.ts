/**
 * The visit collector shared by the console and the Web Server client script: one visit per page view
 * (SPEC §3 array + path, referrer, visitor id, session id; src/shared/analytics.ts), PATCHed later with
 * its duration so far and with the network speed once measured. Everything goes through the queue and
 * the sender, so online and offline take the same path. Ports are parameters: the console passes its
 * API base, the client script the page's, tests their own.
 */
import {
  ANALYTICS_LIMITS,
  type AnalyticsPatch,
  type AnalyticsRecord,
  bytesPerSecondToMbps,
} from '../../shared/analytics'
import { steppedBackoff } from '../../sync/queue/retry'
import { createRetryTimer } from '../../sync/queue/retry-timer'
import type { AnalyticsArray } from './environment'
import type { OpQueue } from './queue'
import { createSender, type DrainResult, type SenderPorts, type ServerIds } from './sender'
import type { VisitorIds } from './visitor-id'

export interface CollectorPorts extends Omit<SenderPorts, 'queue'> {
  queue: OpQueue
  visitorIds: VisitorIds
  sessionId: string
  /** The SPEC array as of now, with the speed measured so far. */
  environment(speedMbps: number | null): AnalyticsArray
  now(): number
  makeId(): string
  setTimeout(fn: () => void, ms: number): unknown
  clearTimeout(handle: unknown): void
}

/** Retries of a drain that could not finish: soon at first, then once a minute. */
const RETRY_MS = [2_000, 5_000, 15_000, 30_000, 60_000]

export interface Collector {
  /** Records a page view; ends the previous one (its final duration). */
  pageView(path: string, referrer: string): Promise<void>
  /** Reports the measured speed on the current visit and on every later one. */
  setSpeed(bytesPerSecond: number): Promise<void>
  /** Reports the current visit's duration so far: the page is being hidden or left. */
  flushDuration(): Promise<void>
  /** Tries to send what is queued now (the network is back). */
  drain(): Promise<DrainResult>
  stop(): void
}

export function createCollector(ports: CollectorPorts): Collector {
  const ids: ServerIds = new Map()
  const sender = createSender({ ...ports, queue: ports.queue }, ids)
  let speedMbps: number | null = null
  let current: { local: string; started: number } | null = null
  let stopped = false
  const retry = createRetryTimer(ports, steppedBackoff(RETRY_MS), () => void drain())

  async function drain(): Promise<DrainResult> {
    const result = await sender.drain().catch(() => 'retry' as const)
    if (result === 'done') retry.reset()
    else retry.schedule()
    return result
  }

  const update = async (local: string, body: AnalyticsPatch) => {
    await ports.queue.add({ kind: 'update', local, server: ids.get(local) ?? undefined, body })
    await drain()
  }

  const durationOf = (v: { started: number }) =>
    Math.min(ANALYTICS_LIMITS.durationMaxMs, Math.max(0, Math.round(ports.now() - v.started)))

  return {
    async pageView(path, referrer) {
      if (stopped) return
      const previous = current
      const local = ports.makeId()
      current = { local, started: ports.now() }
      if (previous)
        await ports.queue.add({ kind: 'update', local: previous.local, body: [durationOf(previous), null] })
      const visitor = await ports.visitorIds.get()
      const record: AnalyticsRecord = [
        ...ports.environment(speedMbps),
        path.slice(0, ANALYTICS_LIMITS.textMax),
        referrer.slice(0, ANALYTICS_LIMITS.textMax),
        visitor,
        ports.sessionId,
      ]
      await ports.queue.add({ kind: 'visit', local, at: current.started, body: record })
      await drain()
    },
    async setSpeed(bytesPerSecond) {
      speedMbps = Math.round(bytesPerSecondToMbps(bytesPerSecond) * 1000) / 1000
      if (current) await update(current.local, [null, speedMbps])
    },
    async flushDuration() {
      if (current) await update(current.local, [durationOf(current), null])
    },
    drain,
    stop() {
      stopped = true
      retry.stop()
      ports.visitorIds.close()
    },
  }
}
