/** Pure helpers for document bodies shared by every store implementation. */
import crypto from 'node:crypto'
import { MAX_DOCUMENT_DEPTH } from '../../shared/constants'
import { stripMeta } from '../../shared/merge-patch'
import { SERVER_TEXT } from '../../shared/messages'
import { badRequest } from '../errors'
import type { Body, Doc } from './types'

export { isPlainObject, mergePatch, stripMeta } from '../../shared/merge-patch'

let lastTime = 0
let sequence = 0

/**
 * Time-ordered ids, so documents created without an id list in creation order: the millisecond, then a
 * counter for the ids made in the same millisecond by this process (two creates within one ms used to
 * order by their random part, half the time the wrong way round; a clock that steps back keeps counting
 * on the last time), then 40 random bits so that other instances' ids of that millisecond differ.
 */
export function generateId(): string {
  const now = Date.now()
  if (now > lastTime) {
    lastTime = now
    sequence = 0
  } else sequence++
  return (
    lastTime.toString(36).padStart(9, '0') +
    sequence.toString(36).padStart(4, '0') +
    crypto.randomBytes(5).toString('hex')
  )
}

/**
 * Whether a parsed JSON value nests objects and arrays more than `max` levels (`{}` is one level).
 * Iterative, and it stops at the first branch too deep, so no value can overflow the stack here.
 */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]]
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!
    // Only what JSON.parse makes: a Buffer (a raw upload body) is data, not nesting.
    if (node === null || typeof node !== 'object' || ArrayBuffer.isView(node)) continue
    if (depth > max) return true
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1])
    }
  }
  return false
}

/**
 * Every stored document of both stores is made here, so this is where a document nested deeper than
 * the stores can query (MAX_DOCUMENT_DEPTH) is refused with 400, whatever route or batch it came by;
 * a patch is checked after merging.
 */
export function makeDoc(
  id: string,
  body: Body,
  rev: number,
  created: string,
  now: string,
  user: string | null,
): Doc {
  if (nestedDeeperThan(body, MAX_DOCUMENT_DEPTH))
    throw badRequest(SERVER_TEXT.bodyTooDeep(MAX_DOCUMENT_DEPTH))
  return { ...stripMeta(body), _id: id, _rev: rev, _created: created, _updated: now, _updatedBy: user }
}

/** Internal collections (sessions, mail outbox) are stored like documents but never logged or served. */
export function isInternal(collection: string): boolean {
  return collection.startsWith('_')
}
