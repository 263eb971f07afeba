/**
 * The SPEC §9 speed-test rule against a real HTTP server on loopback serving the dummy bytes, with
 * the clock as a port: the same downloads measured as fast take the 20 MB step and report it, measured
 * as slow stop after 1 MB. (The e2e spec checks the same in Chromium under a real throttle.)
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SPEED_TEST_FIRST_BYTES, SPEED_TEST_SECOND_BYTES } from '../../shared/constants'
import { runSpeedTest } from './speed-test'

let server: http.Server
let base = ''
const asked: number[] = []

beforeAll(async () => {
  const block = Buffer.alloc(64 * 1024, 7)
  server = http.createServer((req, res) => {
    const size = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('size'))
    asked.push(size)
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(size) })
    let left = size
    const pump = () => {
      while (left > 0) {
        const n = Math.min(left, block.length)
        left -= n
        if (!res.write(n === block.length ? block : block.subarray(0, n))) return void res.once('drain', pump)
      }
      res.end()
    }
    pump()
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(() => new Promise<void>((r) => server.close(() => r())))

/** A clock that answers the given instants in turn (start and end of each step). */
const clock =
  (...instants: number[]) =>
  () =>
    instants.shift() ?? 0

const ports = (now: () => number) => ({
  fetch: globalThis.fetch,
  url: (size: number) => `${base}/api/tools/dummy-file?size=${size}`,
  now,
})

describe('speed test', () => {
  it('a fast first step (1 MB in 50 ms = 20 MB/s) earns the 20 MB step, whose speed is reported', async () => {
    asked.length = 0
    const result = await runSpeedTest(ports(clock(0, 50, 100, 1100)))
    expect(asked).toEqual([SPEED_TEST_FIRST_BYTES, SPEED_TEST_SECOND_BYTES])
    expect(result.steps.map((s) => s.bytes)).toEqual([SPEED_TEST_FIRST_BYTES, SPEED_TEST_SECOND_BYTES])
    expect(result.bytesPerSecond).toBe(SPEED_TEST_SECOND_BYTES)
  })

  it('a slow first step (1 MB in 500 ms = 2 MB/s) is the answer', async () => {
    asked.length = 0
    const result = await runSpeedTest(ports(clock(0, 500)))
    expect(asked).toEqual([SPEED_TEST_FIRST_BYTES])
    expect(result.bytesPerSecond).toBe(2_000_000)
  })

  it('exactly 10 MB/s is not faster than 10 MB/s', async () => {
    asked.length = 0
    await runSpeedTest(ports(clock(0, 100)))
    expect(asked).toEqual([SPEED_TEST_FIRST_BYTES])
  })

  it('an aborted run rejects and downloads no further', async () => {
    asked.length = 0
    const controller = new AbortController()
    controller.abort()
    await expect(runSpeedTest(ports(clock(0, 50)), controller.signal)).rejects.toThrow()
    expect(asked.length).toBeLessThanOrEqual(1)
  })
})
