/**
 * Errors across the worker boundary. comlink's built-in "throw" handler sends only name, message and
 * stack, and rebuilds a plain Error: a screen in the page could not tell a `conflict-open` MutationError
 * from a full disk (StorageError `quota`). This handler, registered under the same name on BOTH sides
 * (src/worker/sync.worker.ts and src/app/data/engine-client.ts), also carries `code` and `reason` and
 * rebuilds MutationError / StorageError, so `instanceof`, `.code` and `.reason` work in the page as in
 * the engine. Replacing the built-in entry (same key, same canHandle) keeps comlink's own throw path.
 */
import * as Comlink from 'comlink'
import { MutationError } from '../sync/requests'
import { StorageError } from '../sync/storage'

export interface WireErrorFields {
  name: string
  message: string
  stack?: string
  code?: string
  reason?: string
}

/** What crosses postMessage for a thrown value (structured-clone safe). */
export type WireThrown = { isError: true; value: WireErrorFields } | { isError: false; value: unknown }

export function thrownToWire(value: unknown): WireThrown {
  if (!(value instanceof Error)) return { isError: false, value }
  const fields: WireErrorFields = { name: value.name, message: value.message }
  if (typeof value.stack === 'string') fields.stack = value.stack
  const { code, reason } = value as { code?: unknown; reason?: unknown }
  if (typeof code === 'string') fields.code = code
  if (typeof reason === 'string') fields.reason = reason
  return { isError: true, value: fields }
}

export function thrownFromWire(wire: WireThrown): unknown {
  if (!wire.isError) return wire.value
  const f = wire.value
  let error: Error
  if (f.name === 'MutationError' && f.code) {
    error = new MutationError(f.code as MutationError['code'], f.message)
  } else if (f.name === 'StorageError' && (f.reason === 'quota' || f.reason === 'unavailable')) {
    error = new StorageError(f.reason, null)
    error.message = f.message
  } else {
    error = new Error(f.message)
    error.name = f.name
    if (f.code !== undefined) Object.assign(error, { code: f.code })
    if (f.reason !== undefined) Object.assign(error, { reason: f.reason })
  }
  if (f.stack) error.stack = f.stack
  return error
}

interface Thrown {
  value: unknown
}

/** Replaces comlink's "throw" handler in this realm; safe to call more than once. */
export function registerErrorTransfer(): void {
  const builtin = Comlink.transferHandlers.get('throw')
  if (!builtin) return
  const handler: Comlink.TransferHandler<Thrown, WireThrown> = {
    canHandle: (value): value is Thrown => builtin.canHandle(value),
    serialize: (thrown) => [thrownToWire(thrown.value), []],
    deserialize: (wire) => {
      // comlink rejects the caller's promise with whatever deserialize throws.
      throw thrownFromWire(wire)
    },
  }
  Comlink.transferHandlers.set('throw', handler as Comlink.TransferHandler<unknown, unknown>)
}
