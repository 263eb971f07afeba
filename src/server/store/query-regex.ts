/**
 * $regex support: the pattern is checked when the query is compiled (length cap, flags, syntax, and
 * safe-regex2's star-height test against catastrophic backtracking) so a bad pattern is a 400 before
 * any SQL runs, and SQLite calls back into JavaScript through one registered function that only ever
 * sees patterns that passed. JavaScript's backtracking engine is kept rather than a native RE2 binding
 * (see docs/decisions/data.md): the checks plus the length cap keep it linear for realistic patterns.
 */
import type { Database } from 'better-sqlite3'
import safeRegex from 'safe-regex2'
import { QUERY_TEXT } from '../../shared/messages'
import { badRequest } from '../errors'

/** Long enough for any hand-written filter; short enough that a pattern cannot be a denial of service. */
export const REGEX_MAX_LENGTH = 256
/** i (case-insensitive), m (multi-line anchors), s (dot matches newline): the MongoDB options JS shares. */
const ALLOWED_FLAGS = /^[ims]*$/
/** Compiled patterns are reused across rows and queries; the cap keeps the cache small. */
const CACHE_MAX = 200
const cache = new Map<string, RegExp>()

/** The SQL function name the compiler emits: `mq_regexp(pattern, flags, value)`. */
export const REGEXP_FUNCTION = 'mq_regexp'

/** Validates a $regex/$options pair; throws 400 with the reason. Returns the normalised flags. */
export function checkRegex(pattern: unknown, options: unknown): { pattern: string; flags: string } {
  if (typeof pattern !== 'string') throw badRequest(QUERY_TEXT.badOperand('$regex', 'a string'))
  if (pattern.length > REGEX_MAX_LENGTH) throw badRequest(QUERY_TEXT.regexTooLong(REGEX_MAX_LENGTH))
  const flags = options === undefined ? '' : options
  if (typeof flags !== 'string' || !ALLOWED_FLAGS.test(flags) || new Set(flags).size !== flags.length) {
    throw badRequest(QUERY_TEXT.regexOptions)
  }
  try {
    new RegExp(pattern, flags)
  } catch (error) {
    throw badRequest(QUERY_TEXT.regexInvalid((error as Error).message))
  }
  if (!safeRegex(pattern)) throw badRequest(QUERY_TEXT.regexUnsafe)
  return { pattern, flags }
}

function compiled(pattern: string, flags: string): RegExp | null {
  const key = `${flags}/${pattern}`
  let re = cache.get(key)
  if (!re) {
    try {
      checkRegex(pattern, flags)
      re = new RegExp(pattern, flags)
    } catch {
      return null
    }
    if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!)
    cache.set(key, re)
  }
  return re
}

/** Registers the regex function on a SQLite connection; the store calls it once when it opens. */
export function registerQueryFunctions(db: Database): void {
  db.function(REGEXP_FUNCTION, { deterministic: true, varargs: false }, (pattern, flags, value) => {
    if (typeof pattern !== 'string' || typeof flags !== 'string' || typeof value !== 'string') return 0
    const re = compiled(pattern, flags)
    return re?.test(value) ? 1 : 0
  })
}
