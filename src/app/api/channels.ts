/**
 * Which channels can send on this server (GET /api/messages/channels), so the composer's status, the
 * history and a template's "Send a test" say "Queued: e-mail is not configured on this server" instead
 * of a success (issue 36). Asked when the server is reachable and kept for a minute: a server's
 * configuration changes with a restart, not between two sends. Unknown (offline, an older server):
 * nothing is claimed either way.
 */
import { useEffect, useState } from 'react'
import { MESSAGE_CHANNELS_PATH, type MessageChannel, type MessageChannelsInfo } from '../../shared/messaging'
import { useServerReachable } from '../sync-ui/use-server-reachable'
import { api } from './client'

const FRESH_MS = 60_000
let cached: { info: MessageChannelsInfo; at: number } | null = null

export async function fetchChannels(): Promise<MessageChannelsInfo | null> {
  if (cached && Date.now() - cached.at < FRESH_MS) return cached.info
  try {
    const info = await api.request<MessageChannelsInfo>(MESSAGE_CHANNELS_PATH)
    cached = { info, at: Date.now() }
    return info
  } catch {
    return cached?.info ?? null
  }
}

/** True when the server said the channel has no provider; false when it has one or nobody knows. */
export function notConfigured(info: MessageChannelsInfo | null, channel: unknown): boolean {
  return info?.configured[channel as MessageChannel] === false
}

export function useChannelsInfo(): MessageChannelsInfo | null {
  const reachable = useServerReachable()
  const [info, setInfo] = useState<MessageChannelsInfo | null>(cached?.info ?? null)
  useEffect(() => {
    if (!reachable) return
    let live = true
    void fetchChannels().then((next) => {
      if (live && next) setInfo(next)
    })
    return () => {
      live = false
    }
  }, [reachable])
  return info
}
