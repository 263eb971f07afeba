/**
 * The streaming pull over the websocket (`sync` event) against the real server: backlog then live
 * changes, every seq exactly once and in order with each page's `from` equal to the previous
 * `cursor`; resuming after a disconnect; permission filtering; concurrent writers; a paused (slow)
 * client; and `gone` for another epoch or changed permissions.
 */
import { describe, expect, it } from 'vitest'
import type { Write } from '../../src/server/store/types'
import { SYNC_PAGE_DEFAULT } from '../../src/shared/constants'
import type { ChangesPayload, GonePayload, SyncChange } from '../../src/shared/sync-protocol'
import { changeLog } from '../helpers/change-log'
import { suiteServer } from '../helpers/suite-server'
import { chain, openSocket, type TestSocket } from './socket-client'

const server = suiteServer()

const store = () => server.services.store
const tick = () => new Promise<void>((resolve) => setImmediate(resolve))

async function connected(token: string): Promise<TestSocket> {
  const s = await openSocket(server.url, token)
  expect(await s.next()).toMatchObject({ event: 'connected', payload: { connected: true } })
  return s
}

const seqs = (changes: SyncChange[]) => changes.map((c) => c.seq)
const creates = (collection: string, n: number, prefix: string): Write[] =>
  Array.from({ length: n }, (_, i) => ({ op: 'create', collection, id: `${prefix}-${i}`, body: { i } }))

describe('websocket sync stream', () => {
  it('streams the backlog in linked pages, then live writes as they commit', async () => {
    const start = await store().headSeq()
    await store().writeMany(creates('data/stream', SYNC_PAGE_DEFAULT * 2 + 17, 'b'), { user: 'admin' })
    const s = await connected(server.admin)
    s.send('sync', { cursor: start })
    const backlog = await s.pagesUntil()
    expect(backlog.length).toBeGreaterThanOrEqual(3)
    expect(backlog.slice(0, -1).every((p) => p.more)).toBe(true)

    for (let i = 0; i < 5; i++) {
      await store().write(
        { op: 'create', collection: 'data/stream', id: `live-${i}`, body: {} },
        { user: 'a' },
      )
    }
    await store().write({ op: 'delete', collection: 'data/stream', id: 'live-0' }, { user: 'a' })
    const head = await store().headSeq()
    const live = await s.pagesUntil(head)

    const got = chain([...backlog, ...live], start)
    expect(seqs(got)).toEqual(seqs(await changeLog(store(), start)))
    expect(got.at(-1)).toMatchObject({ id: 'live-0', op: 'delete', doc: null })
    await s.close()
  })

  it('resumes after a disconnect from the stored cursor with exactly the missed changes', async () => {
    const s = await connected(server.admin)
    const start = await store().headSeq()
    s.send('sync', { cursor: start })
    const first = await s.pagesUntil()
    await store().writeMany(creates('data/resume', 3, 'one'), { user: 'admin' })
    const pages = [...first, ...(await s.pagesUntil(await store().headSeq()))]
    const stored = { cursor: pages.at(-1)!.cursor, epoch: pages.at(-1)!.epoch }
    const before = chain(pages, start)
    await s.close()

    await store().writeMany(creates('data/resume', 4, 'two'), { user: 'admin' })
    await store().write({ op: 'delete', collection: 'data/resume', id: 'one-1' }, { user: 'admin' })

    const again = await connected(server.admin)
    again.send('sync', stored)
    const after = chain(await again.pagesUntil(), stored.cursor)
    expect(seqs(after)).toEqual(seqs(await changeLog(store(), stored.cursor)))
    expect(after.map((c) => c.id)).toEqual(['two-0', 'two-1', 'two-2', 'two-3', 'one-1'])
    const all = [...seqs(before), ...seqs(after)]
    expect(new Set(all).size).toBe(all.length)
    await again.close()
  })

  it('never skips or repeats a change while writers commit during the backlog and live phases', async () => {
    const start = await store().headSeq()
    await store().writeMany(creates('data/busy', 700, 'pre'), { user: 'admin' })
    const s = await connected(server.admin)
    s.send('sync', { cursor: start })
    const writer = async (name: string) => {
      for (let i = 0; i < 80; i++) {
        const id = `${name}-${i % 10}`
        if (i < 10)
          await store().write({ op: 'create', collection: 'data/busy', id, body: { i } }, { user: name })
        else await store().write({ op: 'patch', collection: 'data/busy', id, body: { i } }, { user: name })
        if (i % 3 === 0) await tick()
      }
    }
    await Promise.all(['w1', 'w2', 'w3'].map(writer))
    const head = await store().headSeq()
    const got = chain(await s.pagesUntil(head), start)
    expect(seqs(got)).toEqual(seqs(await changeLog(store(), start)))
    expect(got.length).toBe(700 + 240)
    await s.close()
  })

  it('streams only readable changes, and tells the client when it is caught up', async () => {
    const token = await server.userWith('ws-reader', ['data/contacts:r'])
    const start = await store().headSeq()
    const put = (collection: string, id: string) =>
      store().write({ op: 'put', collection, id, body: {} }, { user: 'admin' })
    await put('data/contacts', 'x1')
    await put('data/secret', 'y1')
    await put('users', 'zed')
    const s = await connected(token)
    s.send('sync', { cursor: start })
    const backlog = await s.pagesUntil()
    expect(chain(backlog, start).map((c) => c.id)).toEqual(['x1'])
    expect(backlog.at(-1)!.cursor).toBe(await store().headSeq())

    await put('data/secret', 'y2')
    await put('data/contacts', 'x2')
    const live = await s.pagesUntil(await store().headSeq())
    expect(chain(live, backlog.at(-1)!.cursor).map((c) => c.id)).toEqual(['x2'])
    await s.close()
  })

  it('delivers everything exactly once to a client that stops reading for a while', async () => {
    const s = await connected(server.admin)
    const start = await store().headSeq()
    s.send('sync', { cursor: start })
    await s.pagesUntil()
    s.ws.pause()
    const big = 'x'.repeat(2000)
    for (let round = 0; round < 6; round++) {
      const writes: Write[] = Array.from({ length: 500 }, (_, i) => ({
        op: 'put',
        collection: 'data/slow',
        id: `d-${i}`,
        body: { big, round },
      }))
      await store().writeMany(writes, { user: 'admin' })
      await tick()
    }
    const head = await store().headSeq()
    s.ws.resume()
    const got = chain(await s.pagesUntil(head), start)
    expect(seqs(got)).toEqual(seqs(await changeLog(store(), start)))
    expect(got.at(-1)!.doc).toMatchObject({ round: 5 })
    await s.close()
  })

  it('says gone for another epoch, and when the epoch is reset while streaming', async () => {
    const s = await connected(server.admin)
    s.send('sync', { cursor: 0, epoch: 'not-this-one' })
    const gone = await s.next((m) => m.event === 'gone' || m.event === 'changes')
    expect(gone.event).toBe('gone')
    const { epoch } = gone.payload as GonePayload

    s.send('sync', { cursor: await store().headSeq(), epoch })
    expect((await s.pagesUntil())[0]!.epoch).toBe(epoch)
    await store().resetEpoch()
    server.services.hub.epochChanged()
    const next = await s.next((m) => m.event === 'gone' || m.event === 'changes')
    expect(next.event).toBe('gone')
    expect((next.payload as GonePayload).epoch).not.toBe(epoch)

    s.send('sync', { cursor: (await store().headSeq()) + 5 })
    expect((await s.next((m) => m.event === 'gone' || m.event === 'changes')).event).toBe('gone')
    await s.close()
  })

  it('re-checks permissions when groups change: gone with a new epoch, and nothing leaks', async () => {
    const token = await server.userWith('demoted', ['data/contacts:r'])
    const s = await connected(token)
    s.send('subscribe', { topic: 'data/contacts' })
    s.send('sync', { cursor: await store().headSeq() })
    const [first] = await s.pagesUntil()
    await store().write(
      { op: 'put', collection: 'groups', id: 'g-demoted', body: { name: 'd', permissions: [] } },
      { user: 'admin' },
    )
    await store().write({ op: 'put', collection: 'data/contacts', id: 'after', body: {} }, { user: 'admin' })
    const next = await s.next((m) => m.event === 'gone' || m.event === 'changes')
    expect(next.event).toBe('gone')
    expect((next.payload as GonePayload).epoch).not.toBe(first!.epoch)
    // Neither the stream nor the collection topic may carry a write made after the demotion.
    s.send('ping')
    await s.next((m) => m.event === 'pong')
    const leaked = s.messages.filter(
      (m) =>
        (m.event === 'changes' && (m.payload as ChangesPayload).changes.some((c) => c.id === 'after')) ||
        (m.event === 'data/contacts' && (m.payload as SyncChange).id === 'after'),
    )
    expect(leaked).toEqual([])
    await s.close()
  })
})
