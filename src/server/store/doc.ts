/** Pure helpers for document bodies shared by every store implementation. */
import crypto from 'node:crypto'
import { MAX_DOCUMENT_DEPTH } from '../../shared/constants'
import { META_FIELDS } from '../../shared/merge-patch'
import { SERVER_TEXT } from '../../shared/texts'
import { badRequest } from '../errors'
import type { Body, Doc } from './types'

export { isPlainObject, mergePatch, stripMeta } from '../../shared/merge-patch'

let lastTime = 0
let sequence = 0

/**
 * Random bytes drawn 5 KiB at a time: a `randomBytes(5)` per id was a tenth of an import's CPU (issue
 * 20). The bytes only keep two instances' ids apart; nothing relies on them being secret.
 */
const pool = Buffer.alloc(5 * 1024)
let poolOffset = pool.length

function randomHex5(): string {
  if (poolOffset + 5 > pool.length) {
    crypto.randomFillSync(pool)
    poolOffset = 0
  }
  poolOffset += 5
  return pool.toString('hex', poolOffset - 5, poolOffset)
}

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
  return lastTime.toString(36).padStart(9, '0') + sequence.toString(36).padStart(4, '0') + randomHex5()
}

/**
 * Whether a parsed JSON value nests objects and arrays more than `max` levels (`{}` is one level).
 * Recursive, but it never goes below level `max + 1` (it stops at the first branch too deep), so the
 * stack it uses is bounded by `max` (at most MAX_BODY_DEPTH, 200), whatever the value. It walks every
 * write's body twice (the body check, makeDoc), so it allocates nothing (issue 20: the iterative walk
 * with a pair per node was a tenth of makeDoc's time).
 */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  return deeperThan(value, 1, max)
}

function deeperThan(node: unknown, depth: number, max: number): boolean {
  // Only what JSON.parse makes: a Buffer (a raw upload body) is data, not nesting.
  if (node === null || typeof node !== 'object' || ArrayBuffer.isView(node)) return false
  if (depth > max) return true
  if (Array.isArray(node)) {
    for (const child of node) if (deeperThan(child, depth + 1, max)) return true
    return false
  }
  const obj = node as Record<string, unknown>
  for (const key in obj) if (Object.hasOwn(obj, key) && deeperThan(obj[key], depth + 1, max)) return true
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
  // One copy: the body's own fields without its meta fields, then the store's meta fields.
  const doc: Body = {}
  for (const key in body) if (Object.hasOwn(body, key) && !META_FIELDS.has(key)) doc[key] = body[key]
  doc._id = id
  doc._rev = rev
  doc._created = created
  doc._updated = now
  doc._updatedBy = user
  return doc as Doc
}

/** Internal collections (sessions, mail outbox) are stored like documents but never logged or served. */
export function isInternal(collection: string): boolean {
  return collection.startsWith('_')
}
