/**
 * What a tab that does not lead reports as `network`. Only the leader talks to the server, so only it
 * knows whether the server answers; a follower used to keep its initial 'offline' forever. Now:
 *   - the browser's own flag (navigator.onLine and its online/offline events) is the floor: when the
 *     browser says offline, the follower says offline;
 *   - otherwise it shows the leader's last network state, which the leader posts on a BroadcastChannel
 *     named after the database whenever it changes (a follower that starts asks, the leader answers);
 *   - with no word from a leader yet it keeps its state ('offline' at start; the leader answers the
 *     `ask` at once); when the leader leaves it keeps the last state until the next leader speaks.
 * A channel, not the meta table: a status flip is not worth an IndexedDB write (and on a full disk it
 * would fail), and a missed message only means the browser's flag is shown until the next change.
 */
import type { PeerMessage, PeersPort } from './ports'
import type { StatusStore, SyncStatus } from './status'

type Network = SyncStatus['network']

export function channelName(database: string): string {
  return `momentum-sync-status:${database}`
}

/** Wires a follower's network to the leader's; returns the function that unwires it (engine close). */
export function shareNetworkStatus(
  peers: PeersPort | undefined,
  database: string,
  status: StatusStore,
): () => void {
  if (!peers) return () => undefined
  const channel = peers.channel(channelName(database))
  let leaderNetwork: Network | null = null
  let posted: Network | null = null

  const show = () => {
    if (status.get().leader) return
    if (!peers.online()) status.update({ network: 'offline' })
    else if (leaderNetwork) status.update({ network: leaderNetwork })
    // No word from a leader yet: keep what we have. Guessing 'online' here would also make a tab that
    // is about to lead claim 'online' before its first request answered.
  }
  channel?.onMessage((m: PeerMessage) => {
    if (m.type === 'ask') {
      if (status.get().leader) channel.post({ type: 'status', network: status.get().network })
    } else if (m.type === 'status') {
      leaderNetwork = m.network
      show()
    } else if (m.type === 'left') {
      leaderNetwork = null
    }
  })
  const offConnectivity = peers.onConnectivity(show)
  const offStatus = status.subscribe((s) => {
    if (!s.leader) {
      posted = null
      return
    }
    if (s.network !== posted) {
      posted = s.network
      channel?.post({ type: 'status', network: s.network })
    }
  })
  show()
  channel?.post({ type: 'ask' })

  return () => {
    if (status.get().leader) channel?.post({ type: 'left' })
    offConnectivity()
    offStatus()
    channel?.close()
  }
}
