/**
 * The network speed test (SPEC §9): download SPEED_TEST_FIRST_BYTES from /api/tools/dummy-file, and only
 * when that ran faster than SPEED_TEST_FAST_BYTES_PER_S the bigger SPEED_TEST_SECOND_BYTES, whose speed
 * then wins: on a fast link 1 MB is over before TCP has opened its window and under-reports, while on a
 * slow one 20 MB would take minutes of the user's bandwidth. Each step is timed from the request to the
 * last byte read, which is what a page load feels. Cancellable through the caller's AbortSignal; the
 * caller never runs it on a Save-Data connection (environment.ts).
 */
import {
  SPEED_TEST_FAST_BYTES_PER_S,
  SPEED_TEST_FIRST_BYTES,
  SPEED_TEST_SECOND_BYTES,
} from '../../shared/constants'

export interface SpeedStep {
  bytes: number
  ms: number
}

export interface SpeedResult {
  /** Bytes per second of the last step run. */
  bytesPerSecond: number
  steps: SpeedStep[]
}

export interface SpeedTestPorts {
  fetch: typeof fetch
  /** The dummy file's address for a size, e.g. `${base}/api/tools/dummy-file?size=N`. */
  url(size: number): string
  headers?: () => Record<string, string>
  now(): number
}

async function step(ports: SpeedTestPorts, size: number, signal?: AbortSignal): Promise<SpeedStep> {
  const started = ports.now()
  const res = await ports.fetch(ports.url(size), {
    headers: ports.headers?.(),
    cache: 'no-store',
    credentials: 'include',
    signal,
  })
  if (!res.ok || !res.body) throw new Error(`speed test: HTTP ${res.status}`)
  const reader = res.body.getReader()
  let bytes = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    bytes += value.byteLength
  }
  return { bytes, ms: Math.max(1, ports.now() - started) }
}

const rate = (s: SpeedStep) => Math.round((s.bytes * 1000) / s.ms)

export async function runSpeedTest(ports: SpeedTestPorts, signal?: AbortSignal): Promise<SpeedResult> {
  const first = await step(ports, SPEED_TEST_FIRST_BYTES, signal)
  if (rate(first) <= SPEED_TEST_FAST_BYTES_PER_S) return { bytesPerSecond: rate(first), steps: [first] }
  const second = await step(ports, SPEED_TEST_SECOND_BYTES, signal)
  return { bytesPerSecond: rate(second), steps: [first, second] }
}
