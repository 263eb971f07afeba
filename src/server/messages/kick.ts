/**
 * The running queue's "look now" for code outside the messages module that writes `queued` records
 * (action scripts' `messages.send`, docs/operating/actions.md): without it they would wait for the next tick.
 */
import type { Services } from '../services'

const kicks = new WeakMap<Services, () => void>()

/** messagesModule registers its queue's kick here. */
export function registerMessageKick(services: Services, kick: () => void): void {
  kicks.set(services, kick)
}

export function kickMessageQueue(services: Services): void {
  kicks.get(services)?.()
}
