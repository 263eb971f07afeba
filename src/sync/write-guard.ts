/**
 * Refuses, before anything is queued, a write the session's permissions do not allow (issue 11,
 * docs/decisions/screens.md). Without it a read-only viewer's save was stored, shown as saved, put in
 * the outbox and only refused by the server later, one 403 at a time in the Sync panel. The rule is
 * the server guard's (src/shared/write-permission.ts, the shared matcher), per document path, so the
 * console and the server agree; the server still checks everything.
 *
 * A wrapper around any MutationApi, so the page's API (src/app/data/sync-context.tsx) and tests use
 * the same code whatever thread the engine runs in.
 */
import type { SyncDoc } from '../db/types'
import { type WriteOp, writeRefusal } from '../shared/write-permission'
import type { MutationApi, WriteOptions } from './engine'

export class WriteRefusedError extends Error {
  readonly code = 'forbidden'
  constructor(
    message: string,
    /** The permission the write needs, e.g. `data/contacts/7:u`. */
    readonly needed: string,
  ) {
    super(message)
    this.name = 'WriteRefusedError'
  }
}

export interface WriteGuardSource {
  /** The session's permissions now (they change on login and on a session refresh). */
  permissions(): readonly string[]
  /** The session's user id (editing your own profile is the server's to judge). */
  user(): string | null
  /** Whether the document is on this device: a put without a base creates it when it is not. */
  exists(collection: string, id: string): Promise<boolean>
}

export function guardWrites(api: MutationApi, source: WriteGuardSource): MutationApi {
  const check = (op: WriteOp, collection: string, id?: string) => {
    const refusal = writeRefusal(source.permissions(), op, collection, id, source.user())
    if (refusal) throw new WriteRefusedError(refusal.message, refusal.needed)
  }
  // put: with base null the user started from "no such document" (a create); with a base it is an
  // update; without one it is whatever the local row says (imports by _id), as planRequest decides.
  const putOp = async (collection: string, id: string, options?: WriteOptions): Promise<WriteOp> => {
    if (options?.base === null) return 'create'
    if (options?.base) return 'update'
    return (await source.exists(collection, id)) ? 'update' : 'create'
  }
  return {
    async create(collection, body, id) {
      check('create', collection, id)
      return api.create(collection, body, id)
    },
    async put(collection, id, body, options): Promise<SyncDoc> {
      check(await putOp(collection, id, options), collection, id)
      return api.put(collection, id, body, options)
    },
    async patch(collection, id, body, options) {
      check('update', collection, id)
      return api.patch(collection, id, body, options)
    },
    async delete(collection, id) {
      check('delete', collection, id)
      return api.delete(collection, id)
    },
  }
}
