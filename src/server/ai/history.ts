/**
 * Per-user assistant history in the internal `_ai_history` collection: one document per user holding
 * the raw messages (think and context blocks kept; the console strips them when it shows them).
 * Internal collections never enter the change log, so a conversation is never synced to other users'
 * mirrors. Appends use the document revision, so two questions sent at once both land.
 */
import { ApiError } from '../errors'
import type { DocumentStore } from '../store/types'
import type { ChatMessage } from './upstream'

export const AI_HISTORY_COLLECTION = '_ai_history'
/** Stored turns per user: enough for a long session, small enough to read on every question. */
export const AI_HISTORY_MAX = 200
/** Turns sent to the model with a question; older ones fall out of a small local model's context. */
export const AI_CONTEXT_MESSAGES = 20

export type StoredMessage = Pick<ChatMessage, 'role' | 'content'> & { role: 'user' | 'assistant' }

function messagesOf(doc: Record<string, unknown> | null): StoredMessage[] {
  const list = doc?.messages
  if (!Array.isArray(list)) return []
  return list.filter(
    (m): m is StoredMessage =>
      !!m &&
      typeof m === 'object' &&
      (m.role === 'user' || m.role === 'assistant') &&
      typeof (m as { content?: unknown }).content === 'string',
  )
}

export async function loadHistory(store: DocumentStore, user: string): Promise<StoredMessage[]> {
  return messagesOf(await store.get(AI_HISTORY_COLLECTION, user))
}

export async function appendHistory(
  store: DocumentStore,
  user: string,
  added: StoredMessage[],
): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const doc = await store.get(AI_HISTORY_COLLECTION, user)
    const messages = [...messagesOf(doc), ...added].slice(-AI_HISTORY_MAX)
    try {
      if (doc) {
        await store.write(
          {
            op: 'put',
            collection: AI_HISTORY_COLLECTION,
            id: user,
            body: { messages },
            expectedRev: doc._rev,
          },
          { user },
        )
      } else {
        await store.write(
          { op: 'create', collection: AI_HISTORY_COLLECTION, id: user, body: { messages } },
          { user },
        )
      }
      return
    } catch (err) {
      // Another question of the same user committed in between: reread and append again.
      if (!(err instanceof ApiError && err.status === 409) || attempt >= 4) throw err
    }
  }
}

export async function clearHistory(store: DocumentStore, user: string): Promise<void> {
  const doc = await store.get(AI_HISTORY_COLLECTION, user)
  if (doc) await store.write({ op: 'delete', collection: AI_HISTORY_COLLECTION, id: user }, { user })
}
