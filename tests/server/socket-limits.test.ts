/**
 * Resource limits of the websocket and the sync pull against the real server (issue 10 #9): sockets
 * are capped per session and per user, refused with SOCKET_CLOSE_TOO_MANY while the server and the
 * sockets already open keep answering; and pages of big documents are bounded by bytes, on the
 * stream and over GET /api/sync, without losing or repeating a change.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest'
import type { Change, Write } from '../../src/server/store/types'
import {
  SOCKETS_PER_SESSION_MAX,
  SOCKETS_PER_USER_MAX,
  SYNC_PAGE_MAX_BYTES,
} from '../../src/shared/constants'
import { type PullResponse, SOCKET_CLOSE_TOO_MANY } from '../../src/shared/sync-protocol'
import { SYNC_TEXT } from '../../src/shared/texts'
import { suiteServer } from '../helpers/suite-server'
import { chain, openSocket, type TestSocket } from './socket-client'

const server = suiteServer({}, { login: false })

const store = () => server.services.store

/** Opens `n` sockets at once; sorts them into connected and refused by their first frame. */
async function flood(token: string, n: number) {
  const sockets = await Promise.all(Array.from({ length: n }, () => openSocket(server.url, token)))
  const first = await Promise.all(sockets.map((s) => s.next()))
  const open: TestSocket[] = []
  const refused: TestSocket[] = []
  first.forEach((m, i) => {
    if (m.event === 'connected' && (m.payload as { connected: boolean }).connected) open.push(sockets[i]!)
    else refused.push(sockets[i]!)
  })
  return { open, refused, first }
}

async function answers(s: TestSocket): Promise<boolean> {
  s.send('ping', { alive: true })
  return (await s.next((m) => m.event === 'pong')).payload !== undefined
}

describe('sockets per session and per user', () => {
  it('refuses sockets past the session cap with 4429, keeps the open ones and the server answering', async () => {
    const token = await server.login()
    const { open, refused, first } = await flood(token, SOCKETS_PER_SESSION_MAX + 24)
    expect(open).toHaveLength(SOCKETS_PER_SESSION_MAX)
    expect(refused).toHaveLength(24)
    expect(first).toContainEqual({
      event: 'error',
      payload: { message: SYNC_TEXT.tooManySockets(SOCKETS_PER_SESSION_MAX) },
    })
    for (const s of refused)
      expect(await s.closed).toEqual({ code: SOCKET_CLOSE_TOO_MANY, reason: 'too many sockets' })

    // The server keeps answering HTTP and the sockets already open keep working.
    expect((await server.api('/api/sync?limit=1', { token })).status).toBe(200)
    for (const s of open) expect(await answers(s)).toBe(true)

    // A closed socket frees its place.
    await open.pop()!.close()
    const again = await flood(token, 1)
    expect(again.open).toHaveLength(1)
    for (const s of [...open, ...again.open]) await s.close()
  })

  it('caps the sockets of one user across sessions', async () => {
    const sessions = [await server.userWith('many', ['data:r'])]
    for (let i = 0; i < 2; i++) sessions.push(await server.login('many', 'many-pw'))
    const perSession = Math.ceil(SOCKETS_PER_USER_MAX / 2)
    const a = await flood(sessions[0]!, perSession)
    const b = await flood(sessions[1]!, SOCKETS_PER_USER_MAX - perSession)
    expect(a.open.length + b.open.length).toBe(SOCKETS_PER_USER_MAX)
    const c = await flood(sessions[2]!, 1)
    expect(c.open).toHaveLength(0)
    expect(c.first[0]).toEqual({
      event: 'error',
      payload: { message: SYNC_TEXT.tooManySockets(SOCKETS_PER_USER_MAX) },
    })
    expect((await c.refused[0]!.closed).code).toBe(SOCKET_CLOSE_TOO_MANY)
    // Another user is not affected.
    const admin = await flood(await server.login(), 1)
    expect(admin.open).toHaveLength(1)
    for (const s of [...a.open, ...b.open, ...admin.open]) await s.close()
  })
})

describe('pages bounded by bytes', () => {
  const DOCS = 40
  const big = (i: number): Write => ({
    op: 'create',
    collection: 'data/big',
    id: `big-${i}`,
    // About 100 KB each, with multi-byte characters so bytes and characters differ.
    body: { i, text: `${'é'.repeat(20_000)}${'x'.repeat(60_000)}` },
  })
  let start = 0

  /**
   * The bytes of stored JSON each store read returned while `fn` ran: the read itself is bounded, so
   * 40 big documents are never loaded at once (a read of several changes stays under the bound).
   */
  async function storeReads(fn: () => Promise<void>): Promise<number[]> {
    const reads: number[] = []
    const original = store().changes.bind(store())
    const spy = vi.spyOn(store(), 'changes').mockImplementation(async (...args) => {
      const page = await original(...args)
      const bytes = (c: Change) => (c.doc ? Buffer.byteLength(JSON.stringify(c.doc)) : 0)
      if (page.changes.length > 1) reads.push(page.changes.reduce((n, c) => n + bytes(c), 0))
      return page
    })
    try {
      await fn()
    } finally {
      spy.mockRestore()
    }
    return reads
  }

  beforeAll(async () => {
    start = await store().headSeq()
    await store().writeMany(
      Array.from({ length: DOCS }, (_, i) => big(i)),
      { user: 'admin' },
    )
  })

  it('streams big documents in frames under the byte bound, every change once and in order', async () => {
    const token = await server.login()
    const s = await openSocket(server.url, token)
    const sizes: number[] = []
    let pages: Awaited<ReturnType<TestSocket['pagesUntil']>> = []
    s.ws.on('message', (data: Buffer) => {
      if (data.toString('utf8', 0, 20).includes('"changes"')) sizes.push(data.length)
    })
    expect(await s.next()).toMatchObject({ event: 'connected', payload: { connected: true } })
    const reads = await storeReads(async () => {
      s.send('sync', { cursor: start })
      pages = await s.pagesUntil()
    })
    expect(reads.length).toBeGreaterThan(0)
    for (const bytes of reads) expect(bytes).toBeLessThanOrEqual(SYNC_PAGE_MAX_BYTES)
    // chain() checks that each page continues the previous one's cursor (nothing skipped).
    const changes = chain(pages, start)
    const seqs = changes.map((c) => c.seq)
    expect(seqs).toEqual([...new Set(seqs)].sort((x, y) => x - y))
    const docs = changes.filter((c) => c.collection === 'data/big')
    expect(docs.map((c) => c.id)).toEqual(Array.from({ length: DOCS }, (_, i) => `big-${i}`))
    expect(docs.map((c) => c.seq)).toEqual(Array.from({ length: DOCS }, (_, i) => start + i + 1))
    expect(pages.length).toBeGreaterThan(1)
    expect(sizes).toHaveLength(pages.length)
    for (const size of sizes) expect(size).toBeLessThanOrEqual(SYNC_PAGE_MAX_BYTES)
    await s.close()
  })

  it('cuts a GET /api/sync page at the byte bound and continues from its cursor', async () => {
    const token = await server.login()
    let cursor = start
    const ids: string[] = []
    let requests = 0
    const reads = await storeReads(async () => {
      for (;;) {
        const res = await server.api(`/api/sync?cursor=${cursor}&limit=2000`, { token })
        expect(res.status).toBe(200)
        expect(Buffer.byteLength(res.text)).toBeLessThanOrEqual(SYNC_PAGE_MAX_BYTES)
        const page = res.body as PullResponse
        ids.push(...page.changes.filter((c) => c.collection === 'data/big').map((c) => c.id))
        if (page.changes.length) expect(page.cursor).toBe(page.changes[page.changes.length - 1]!.seq)
        cursor = page.cursor
        requests++
        if (!page.more) break
      }
    })
    expect(reads.length).toBeGreaterThan(0)
    for (const bytes of reads) expect(bytes).toBeLessThanOrEqual(SYNC_PAGE_MAX_BYTES)
    expect(ids).toEqual(Array.from({ length: DOCS }, (_, i) => `big-${i}`))
    expect(requests).toBeGreaterThan(1)
  })
})
