/**
 * Session changes between the tabs of one browser (BroadcastChannel 'momentum-session'). Tabs share the
 * stored token but each keeps its session, and its sync engine, in memory: without this a login in one
 * tab would leave the tab that leads the sync (and holds its Web Lock) on the old, dead token, and
 * nothing would replay. Only a transport: create-session.ts decides what a message means for this tab.
 */
import type { CurrentUser } from './create-session'

export const SESSION_CHANNEL = 'momentum-session'

export type SessionMessage =
  /** A user logged in (or re-authenticated after an expiry) in the sending tab. */
  | { type: 'login'; token: string; user: CurrentUser; permissions: string[] }
  /** The user chose to log out; the sending tab already told the server. */
  | { type: 'logout'; user: string }
  /** The server answered 401 for this token: it is dead in every tab that holds it. */
  | { type: 'expired'; token: string }

export interface SessionChannel {
  announce(message: SessionMessage): void
  /** A tab never hears its own messages (BroadcastChannel does not echo to the sender). */
  onMessage(handler: (message: SessionMessage) => void): () => void
  close(): void
}

/** One end of the channel; where there is no BroadcastChannel it carries nothing. Tests name their own. */
export function createSessionChannel(name: string = SESSION_CHANNEL): SessionChannel {
  const channel = typeof BroadcastChannel !== 'undefined' ? new BroadcastChannel(name) : null
  return {
    announce(message) {
      channel?.postMessage(message)
    },
    onMessage(handler) {
      if (!channel) return () => {}
      const listener = (e: MessageEvent<SessionMessage>) => {
        if (e.data && typeof e.data === 'object' && typeof e.data.type === 'string') handler(e.data)
      }
      channel.addEventListener('message', listener)
      return () => channel.removeEventListener('message', listener)
    },
    close() {
      channel?.close()
    },
  }
}
