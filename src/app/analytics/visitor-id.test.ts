/**
 * The shared visitor id over real BroadcastChannels (node has them): a tab with an id answers, a new
 * tab adopts it within the wait, a lone tab makes its own after the wait, and two tabs starting at
 * once agree when the step runs under a lock (a plain promise-chain mutex stands in for Web Locks).
 */
import { afterEach, describe, expect, it } from 'vitest'
import { ANALYTICS_SHARED_ID_WAIT_MS } from '../../shared/constants'
import { type ChannelLike, createVisitorIds, randomId, VISITOR_CHANNEL, type VisitorIds } from './visitor-id'

const opened: VisitorIds[] = []
afterEach(() => {
  for (const v of opened.splice(0)) v.close()
})

function mutex() {
  let tail: Promise<unknown> = Promise.resolve()
  return <T>(_name: string, fn: () => Promise<T>): Promise<T> => {
    const run = tail.then(fn)
    tail = run.catch(() => {})
    return run
  }
}

function tab(opts: { id?: string; lock?: ReturnType<typeof mutex>; made?: string[] } = {}) {
  let stored = opts.id ?? null
  const ids = createVisitorIds({
    channel: new BroadcastChannel(VISITOR_CHANNEL) as unknown as ChannelLike,
    read: () => stored,
    write: (id) => {
      stored = id
    },
    makeId: () => {
      const id = randomId()
      opts.made?.push(id)
      return id
    },
    withLock: opts.lock,
    setTimeout: (fn, ms) => setTimeout(fn, ms),
    clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
  })
  opened.push(ids)
  return { ids, stored: () => stored }
}

describe('shared visitor id', () => {
  it('a new tab adopts the id of an open tab', async () => {
    const first = tab({ id: 'existing-visitor-1' })
    const made: string[] = []
    const second = tab({ made })
    expect(await second.ids.get()).toBe('existing-visitor-1')
    expect(second.stored()).toBe('existing-visitor-1')
    expect(made).toEqual([])
    expect(await first.ids.get()).toBe('existing-visitor-1')
  })

  it('a lone tab makes its own after the wait', async () => {
    const started = Date.now()
    const made: string[] = []
    const lone = tab({ made })
    const id = await lone.ids.get()
    expect(made).toEqual([id])
    expect(id).toMatch(/^[A-Za-z0-9_-]{21}$/)
    expect(Date.now() - started).toBeGreaterThanOrEqual(ANALYTICS_SHARED_ID_WAIT_MS - 5)
  })

  it('two tabs starting together agree under the lock', async () => {
    const lock = mutex()
    const made: string[] = []
    const [a, b] = [tab({ lock, made }), tab({ lock, made })]
    const [idA, idB] = await Promise.all([a.ids.get(), b.ids.get()])
    expect(idA).toBe(idB)
    expect(made).toHaveLength(1)
  })

  it('repeated calls return the same id', async () => {
    const t = tab()
    const [x, y] = await Promise.all([t.ids.get(), t.ids.get()])
    expect(x).toBe(y)
    expect(await t.ids.get()).toBe(x)
  })
})
