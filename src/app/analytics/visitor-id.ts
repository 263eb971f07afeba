/**
 * One visitor id for every tab of a browser (SPEC §9 "analytics shared-id wait 200 ms"). The id is kept
 * in the tab's sessionStorage only, never in a cookie or a lasting store: it lives while a tab of the
 * site is open, which is enough to count a visitor's pages and tabs as one, and no longer
 * (docs/operating/analytics.md "What the browser keeps"). A tab that has none asks the others on a
 * BroadcastChannel and waits ANALYTICS_SHARED_ID_WAIT_MS for an answer before making one. Two tabs
 * opened at the same instant would both wait and both make one, so the ask-wait-make step runs under a
 * Web Lock: the second tab asks only after the first has its id, and gets it.
 */
import { ANALYTICS_SHARED_ID_WAIT_MS } from '../../shared/constants'

/** What goes over the channel: a question, or a tab's answer. */
type IdMessage = { type: 'ask' } | { type: 'id'; id: string }

export interface ChannelLike {
  postMessage(message: IdMessage): void
  addEventListener(type: 'message', listener: (e: { data: unknown }) => void): void
  close(): void
}

export interface VisitorIdPorts {
  /** null where BroadcastChannel is missing: the tab then makes its own id. */
  channel: ChannelLike | null
  read(): string | null
  write(id: string): void
  makeId(): string
  /** Runs `fn` while holding the named exclusive lock; absent: runs it at once. */
  withLock?: <T>(name: string, fn: () => Promise<T>) => Promise<T>
  setTimeout(fn: () => void, ms: number): unknown
  clearTimeout(handle: unknown): void
}

export const VISITOR_CHANNEL = 'momentum-analytics'
const VISITOR_LOCK = 'momentum-analytics-visitor'

export interface VisitorIds {
  /** The shared id, made or adopted on first call; later calls return the same promise. */
  get(): Promise<string>
  close(): void
}

export function createVisitorIds(ports: VisitorIdPorts): VisitorIds {
  let current: string | null = ports.read()
  let pending: Promise<string> | null = null
  let onAnswer: ((id: string) => void) | null = null

  ports.channel?.addEventListener('message', (e) => {
    const msg = e.data as IdMessage | null
    if (msg?.type === 'ask' && current) ports.channel?.postMessage({ type: 'id', id: current })
    else if (msg?.type === 'id' && typeof msg.id === 'string') onAnswer?.(msg.id)
  })

  const adopt = (id: string): string => {
    current = id
    ports.write(id)
    return id
  }

  /** Asks the other tabs and waits for the first answer, or makes an id when none comes in time. */
  const askOrMake = (): Promise<string> => {
    if (current) return Promise.resolve(current)
    const channel = ports.channel
    if (!channel) return Promise.resolve(adopt(ports.makeId()))
    return new Promise<string>((resolve) => {
      const timer = ports.setTimeout(() => {
        onAnswer = null
        const id = adopt(ports.makeId())
        channel.postMessage({ type: 'id', id })
        resolve(id)
      }, ANALYTICS_SHARED_ID_WAIT_MS)
      onAnswer = (id) => {
        ports.clearTimeout(timer)
        onAnswer = null
        resolve(adopt(id))
      }
      channel.postMessage({ type: 'ask' })
    })
  }

  return {
    get() {
      if (current) return Promise.resolve(current)
      pending ??= ports.withLock ? ports.withLock(VISITOR_LOCK, askOrMake) : askOrMake()
      return pending
    },
    close() {
      ports.channel?.close()
    },
  }
}

/** A random id of 21 URL-safe characters (126 bits), like nanoid's default. */
export function randomId(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-'
  const bytes = crypto.getRandomValues(new Uint8Array(21))
  let out = ''
  for (const b of bytes) out += alphabet[b & 63]
  return out
}
