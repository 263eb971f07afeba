/**
 * A dedicated PostgreSQL connection that LISTENs on one channel and is re-made with backoff when it
 * drops (a pooled client could be handed back and stop listening). Shared by the change fan-out
 * (postgres-fanout.ts) and the video relay (video/relay.ts): `onConnected` runs after every
 * (re)connection, so each can catch up on what it missed while nobody was listening.
 */
import pg from 'pg'

const RECONNECT_MIN_MS = 250
const RECONNECT_MAX_MS = 10_000

export interface ListenerOptions {
  connectionString: string
  channel: string
  onNotification(payload: string): void
  /** After LISTEN took effect; a rejection counts as a failed connection (retried). */
  onConnected(): Promise<void> | void
  onError(error: unknown): void
}

export interface Listener {
  /** The connection while it is up (it may also send, in order), or null. */
  client(): pg.Client | null
  close(): Promise<void>
}

/** Resolves once the first attempt ended; `connected` says whether it succeeded (retries go on). */
export async function startListener(o: ListenerOptions): Promise<{ listener: Listener; connected: boolean }> {
  let client: pg.Client | null = null
  let closed = false
  let retryMs = RECONNECT_MIN_MS
  let retryTimer: NodeJS.Timeout | undefined

  const connect = async (): Promise<void> => {
    if (closed) return
    const c = new pg.Client({ connectionString: o.connectionString })
    const retry = () => {
      if (client !== c) return
      client = null
      c.end().catch(() => {})
      if (closed) return
      retryTimer = setTimeout(() => void connect(), retryMs)
      retryTimer.unref()
      retryMs = Math.min(retryMs * 2, RECONNECT_MAX_MS)
    }
    client = c
    c.on('error', (error) => {
      o.onError(error)
      retry()
    })
    c.on('end', retry)
    c.on('notification', (msg) => {
      if (msg.payload) o.onNotification(msg.payload)
    })
    try {
      await c.connect()
      await c.query(`LISTEN ${o.channel}`)
      retryMs = RECONNECT_MIN_MS
      await o.onConnected()
    } catch (error) {
      o.onError(error)
      retry()
    }
  }

  await connect()
  const listener: Listener = {
    client: () => client,
    async close() {
      closed = true
      clearTimeout(retryTimer)
      const c = client
      client = null
      await c?.end().catch(() => {})
    },
  }
  return { listener, connected: client !== null }
}
