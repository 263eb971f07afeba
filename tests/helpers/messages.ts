/**
 * Small helpers for the message tests: polling the queue's records until they reach a state (the
 * queue works in the background, so tests wait for behaviour, never for a time).
 */
import type { DocumentStore } from '../../src/server/store/types'
import { MESSAGES_COLLECTION } from '../../src/shared/messaging'

export async function until<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  what: string,
  timeoutMs = 15_000,
): Promise<T> {
  const end = Date.now() + timeoutMs
  for (;;) {
    const value = await read()
    if (done(value)) return value
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}

/** The records of the messages collection (optionally only some), oldest first. */
export async function records(store: DocumentStore, filter: Record<string, unknown> = {}) {
  return (await store.list(MESSAGES_COLLECTION, { filter, sort: [['_id', 1]], limit: 1000 })).items
}

/** Waits until every record matching `filter` has left `queued`, and returns them. */
export function settled(store: DocumentStore, filter: Record<string, unknown> = {}, count = 1) {
  return until(
    () => records(store, filter),
    (docs) => docs.length >= count && docs.every((d) => d.status !== 'queued'),
    `${count} settled message(s)`,
  )
}
