/**
 * The composition root (src/server/compose.ts): building the services and the app over them starts
 * none of the services' background work (scheduler, sweepers, message queue, mail retries) until
 * start(), and close() stops every one of those timers and closes the pools, the PDF renderer, the
 * queue, the mail outbox, the analytics database and the store.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { buildApp } from '../../src/server/app'
import { composeServices } from '../../src/server/compose'
import { testConfig } from '../helpers/server'

/** Where the services' own timers are made: the root's `every`, the scheduler, the queue, the outbox. */
const SERVICE_FILES = /src\/server\/(compose|actions\/schedule|messages\/queue|mail\/outbox)\.ts/

interface Made {
  handle: unknown
  stack: string
}

function watchIntervals() {
  const made: Made[] = []
  const cleared = new Set<unknown>()
  const set = globalThis.setInterval
  const clear = globalThis.clearInterval
  vi.spyOn(globalThis, 'setInterval').mockImplementation(((...args: Parameters<typeof setInterval>) => {
    const handle = set(...args)
    made.push({ handle, stack: new Error().stack ?? '' })
    return handle
  }) as typeof setInterval)
  vi.spyOn(globalThis, 'clearInterval').mockImplementation(((handle?: NodeJS.Timeout) => {
    cleared.add(handle)
    clear(handle)
  }) as typeof clearInterval)
  const ofServices = () => made.filter((m) => SERVICE_FILES.test(m.stack))
  /** Files under src/server that made an interval so far. */
  const makers = () => made.map((m) => m.stack.match(/src\/server\/([\w/.-]+)\.ts/)?.[1])
  return { ofServices, makers, cleared }
}

afterEach(() => {
  vi.restoreAllMocks()
})

describe('the composition root', () => {
  it('starts no background work while building, and stops all of it on close', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'momentum-compose-'))
    // An SMTP URL gives the mail outbox and the message queue a channel, so both have a timer to start.
    const config = testConfig(dataDir, { smtpUrl: 'smtp://127.0.0.1:9' })
    const timers = watchIntervals()

    const composed = await composeServices(config)
    const app = await buildApp(composed.services)
    await app.ready()
    expect(timers.ofServices()).toEqual([])
    // The one interval a route keeps: the websocket route pings its own open sockets.
    expect(timers.makers()).toEqual(['realtime/socket'])

    composed.start()
    const started = timers.ofServices()
    // The mail retries, the message queue, the checkout, upload and analytics sweeps, the scheduler.
    expect(started.map((m) => m.stack.match(SERVICE_FILES)?.[1]).sort()).toEqual([
      'actions/schedule',
      'compose',
      'compose',
      'compose',
      'mail/outbox',
      'messages/queue',
    ])

    const { services } = composed
    const closes = [
      vi.spyOn(services.actionPool, 'close'),
      vi.spyOn(services.renderPool, 'close'),
      vi.spyOn(services.pdf, 'close'),
      vi.spyOn(services.messages, 'close'),
      vi.spyOn(services.mail, 'close'),
      vi.spyOn(services.analytics, 'close'),
      vi.spyOn(services.store, 'close'),
    ]
    await app.close()
    await composed.close()
    for (const timer of started) expect(timers.cleared.has(timer.handle)).toBe(true)
    for (const close of closes) expect(close).toHaveBeenCalledOnce()
    // A pool closed is closed for good: a job after close is refused, not run on a new worker.
    await expect(
      services.actionPool.run(
        { code: 'return 1', input: 'null', timeLimitMs: 1000, memoryLimitBytes: 8 << 20 },
        { log() {}, async db() {} },
      ),
    ).rejects.toThrow('closed')
    fs.rmSync(dataDir, { recursive: true, force: true })
  })
})
