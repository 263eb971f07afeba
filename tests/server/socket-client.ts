/**
 * A small websocket test client over the `ws` package (Node 20 has no global WebSocket): it records
 * every frame and lets a test wait for the next frame matching a predicate, in arrival order.
 */
import WebSocket from 'ws'
import type { ChangesPayload, SocketMessage, SyncChange } from '../../src/shared/sync-protocol'

export interface TestSocket {
  ws: WebSocket
  /** Every frame received so far, in order. */
  messages: SocketMessage[]
  send(event: string, payload?: unknown): void
  /** Resolves with the first not-yet-consumed frame that matches; rejects when the socket closes. */
  next(match?: (m: SocketMessage) => boolean): Promise<SocketMessage>
  /** Waits for `changes` pages until one reaches `seq` (or, without seq, until one says caught up). */
  pagesUntil(seq?: number): Promise<ChangesPayload[]>
  closed: Promise<{ code: number; reason: string }>
  close(): Promise<void>
}

export function socketUrl(base: string, token?: string, url = '/ui/'): string {
  const q = new URLSearchParams()
  if (token !== undefined) q.set('token', token)
  q.set('url', url)
  return `${base.replace(/^http/, 'ws')}/api/socket?${q}`
}

export async function openSocket(base: string, token?: string): Promise<TestSocket> {
  const ws = new WebSocket(socketUrl(base, token))
  const messages: SocketMessage[] = []
  let consumed = 0
  const waiters: Array<() => void> = []
  let isClosed = false
  const wakeAll = () => {
    for (const w of waiters.splice(0)) w()
  }
  ws.on('message', (data) => {
    messages.push(JSON.parse(data.toString()) as SocketMessage)
    wakeAll()
  })
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    ws.on('close', (code, reason) => {
      isClosed = true
      wakeAll()
      resolve({ code, reason: reason.toString() })
    })
  })
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve())
    ws.once('error', reject)
  })

  const next = async (match: (m: SocketMessage) => boolean = () => true): Promise<SocketMessage> => {
    for (;;) {
      while (consumed < messages.length) {
        const m = messages[consumed++]!
        if (match(m)) return m
      }
      if (isClosed) throw new Error(`socket closed while waiting; received ${JSON.stringify(messages)}`)
      await new Promise<void>((resolve) => waiters.push(resolve))
    }
  }

  return {
    ws,
    messages,
    send(event, payload) {
      ws.send(JSON.stringify({ event, payload }))
    },
    next,
    async pagesUntil(seq) {
      const pages: ChangesPayload[] = []
      for (;;) {
        const m = await next((x) => x.event === 'changes' || x.event === 'gone')
        if (m.event === 'gone') throw new Error(`gone: ${JSON.stringify(m.payload)}`)
        const page = m.payload as ChangesPayload
        pages.push(page)
        if (seq === undefined ? !page.more : page.cursor >= seq) return pages
      }
    },
    closed,
    async close() {
      if (!isClosed) ws.close()
      await closed
    },
  }
}

/** The changes of consecutive pages, checking that each page continues where the previous ended. */
/** A socket past its `connected` greeting, kept in `opened` so the suite closes it at the end. */
export async function openConnected(base: string, token: string, opened: TestSocket[]): Promise<TestSocket> {
  const s = await openSocket(base, token)
  opened.push(s)
  await s.next((m) => m.event === 'connected')
  return s
}

export function chain(pages: ChangesPayload[], start: number): SyncChange[] {
  let cursor = start
  const out: SyncChange[] = []
  for (const p of pages) {
    if (p.from !== cursor) throw new Error(`page from ${p.from} does not continue cursor ${cursor}`)
    cursor = p.cursor
    out.push(...p.changes)
  }
  return out
}
