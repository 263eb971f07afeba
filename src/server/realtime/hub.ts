/**
 * The websocket hub: the registry of open sockets and topic fan-out. Other modules reach it as
 * `services.hub` and call `publish(topic, payload)`; they never see a socket. It holds no I/O of its
 * own, so it is created with the services and lives as long as the server.
 *
 * Topic messages are notifications, not the sync feed: a socket too slow to take them is closed (its
 * client reconnects and resumes its cursor) instead of buffering without bound. Reliable delivery of
 * data is the streaming pull's job (realtime/stream.ts), which re-reads the change log.
 */
import type { Grant } from '../../shared/permissions'

export interface HubClient {
  readonly user: string
  readonly sessionId: string
  /** Current grants; refreshed when groups or users change. */
  readonly grants: readonly Grant[]
  readonly topics: ReadonlySet<string>
  /** Sends one `{event, payload}` frame; never throws. */
  send(event: string, payload: unknown): void
  /** Re-checks the epoch (after a reset or restore) and tells a streaming client `gone`. */
  epochChanged(): void
  /** Ends the socket: the session is over. */
  end(reason: string): void
  /** The host name the browser reached the server by (the upgrade's Host), e.g. for TURN URLs. */
  readonly host?: string | null
}

/** A client event another module handles (video signalling): the sender and its payload. */
export type ClientEventHandler = (client: HubClient, payload: unknown) => void | Promise<void>

export interface PublishOptions {
  /** Only subscribers for whom this returns true receive the message (e.g. a permission check). */
  accept?: (client: HubClient) => boolean
}

export interface Hub {
  /** Sends `{event: topic, payload}` to every subscriber of the topic; returns how many received it. */
  publish(topic: string, payload: unknown, options?: PublishOptions): number
  /** Call after store.resetEpoch() (restore, reset): streaming sockets are told `gone` at once. */
  epochChanged(): void
  /** Call after logout or revocation: that session's sockets close at once. */
  sessionEnded(sessionId: string): void
  /** Registers a socket; returns the function that removes it. */
  attach(client: HubClient): () => void
  clients(): ReadonlySet<HubClient>
  /** Routes the client event `event` to a module (connection.ts asks for unknown events). */
  handle(event: string, handler: ClientEventHandler): () => void
  handlerOf(event: string): ClientEventHandler | undefined
  /** Called when a socket goes away, so a module can drop what it held for it (video rooms). */
  onDetach(listener: (client: HubClient) => void): () => void
}

export function createHub(): Hub {
  const clients = new Set<HubClient>()
  const handlers = new Map<string, ClientEventHandler>()
  const detachListeners = new Set<(client: HubClient) => void>()
  return {
    publish(topic, payload, options = {}) {
      let delivered = 0
      for (const client of clients) {
        if (!client.topics.has(topic)) continue
        if (options.accept && !options.accept(client)) continue
        client.send(topic, payload)
        delivered++
      }
      return delivered
    },
    epochChanged() {
      for (const client of clients) client.epochChanged()
    },
    sessionEnded(sessionId) {
      for (const client of [...clients]) {
        if (client.sessionId === sessionId) client.end('session')
      }
    },
    attach(client) {
      clients.add(client)
      return () => {
        if (!clients.delete(client)) return
        for (const listener of detachListeners) listener(client)
      }
    },
    clients() {
      return clients
    },
    handle(event, handler) {
      handlers.set(event, handler)
      return () => {
        if (handlers.get(event) === handler) handlers.delete(event)
      }
    },
    handlerOf(event) {
      return handlers.get(event)
    },
    onDetach(listener) {
      detachListeners.add(listener)
      return () => {
        detachListeners.delete(listener)
      }
    },
  }
}
