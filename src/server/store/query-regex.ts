/**
 * $regex support: the pattern is checked when the query is compiled (length cap, flags, JavaScript
 * syntax, and RE2's grammar) so a bad pattern is a 400 before any SQL runs, and SQLite calls back into
 * JavaScript through one registered function that only ever sees patterns that passed.
 *
 * User patterns never backtrack: a pattern as plain as `.*.*.*x` over a 500-character log line held the
 * event loop for seconds on JavaScript's engine (issue 10), and no static "safe regex" test catches
 * every such pattern. They run on re2js, a pure-JavaScript port of RE2, whose automaton matches in time
 * linear in the text — except patterns with no quantifier and no alternation, which cannot backtrack
 * and keep JavaScript's faster engine (backtrackFree). The pattern is rewritten from JavaScript syntax into RE2 syntax first
 * (regex-translate.ts), so `\s`, `.` and `^` keep their JavaScript meaning. RE2 has no backreferences
 * and no lookahead, and a user's lookbehind is refused too (regex-translate.ts); such patterns are a 400,
 * on both stores, so both answer alike.
 * See docs/decisions/security.md "Hardening (issue 10)".
 */
import type { Database } from 'better-sqlite3'
import { RE2JS } from 're2js'
import { QUERY_TEXT } from '../../shared/texts'
import { badRequest } from '../errors'
import { type RegexDialect, translateRegex } from './regex-translate'

/** Long enough for any hand-written filter; short enough to keep the automaton small. */
export const REGEX_MAX_LENGTH = 256
/** i (case-insensitive), m (multi-line anchors), s (dot matches newline): the MongoDB options JS shares. */
const ALLOWED_FLAGS = /^[ims]*$/
/** Compiled patterns are reused across rows and queries; the cap keeps the cache small. */
const CACHE_MAX = 200
const cache = new Map<string, Matcher>()

interface Matcher {
  test(text: string): boolean
}

/** The SQL function name the compiler emits: `mq_regexp(pattern, flags, value)`. */
export const REGEXP_FUNCTION = 'mq_regexp'

/**
 * RE2 spelling of what JavaScript means. RE2's `\b` is JavaScript's ASCII boundary; the m flag's `^`
 * uses re2js's linear-time lookbehind, while its `$` (RE2 has no lookahead) matches before `\n` only,
 * not before a lone `\r`, U+2028 or U+2029 — the one documented difference from JavaScript.
 */
const RE2_DIALECT: RegexDialect = {
  hex: (code) => `\\x{${code.toString(16)}}`,
  boundary: '\\b',
  notBoundary: '\\B',
  lineStart: (t) => `(?:^|(?<=[${t}]))`,
  lineEnd: () => '(?m:$)',
  never: '[^\\x{0}-\\x{10ffff}]',
}

/**
 * A pattern with no quantifier and no alternation cannot backtrack: each start position costs at most
 * its own length, so JavaScript's engine runs it in linear time too, about ten times faster than re2js
 * (the logs' `q` search is such a literal). The m flag's `$` stays with RE2, whose meaning differs.
 * Escapes are blanked first; a `?` of a group head or a `{` written as a literal counts (RE2 is used).
 */
function backtrackFree(pattern: string, flags: string): boolean {
  const bare = pattern.replace(/\\[\s\S]/g, 'x')
  return !/[*+?{|]/.test(bare) && !(flags.includes('m') && bare.includes('$'))
}

/** The matcher for a pattern (cached); throws 400 when RE2 cannot run it. */
function compile(pattern: string, flags: string): Matcher {
  const key = `${flags}/${pattern}`
  let matcher = cache.get(key)
  if (!matcher) {
    const translated = translateRegex(pattern, flags, RE2_DIALECT)
    let re2: RE2JS
    try {
      // Always compiled, also for the fast path: what RE2 refuses is refused on every store.
      re2 = RE2JS.compile(translated, RE2JS.LOOKBEHINDS)
    } catch (error) {
      throw badRequest(QUERY_TEXT.regexInvalid(reason(error)))
    }
    matcher = backtrackFree(pattern, flags) ? new RegExp(pattern, flags) : re2
    if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!)
    cache.set(key, matcher)
  }
  return matcher
}

/** RE2's message without its "error parsing regexp: " lead. */
function reason(error: unknown): string {
  return String((error as Error).message).replace(/^error parsing regexp: /, '')
}

/** Validates a $regex/$options pair; throws 400 with the reason. Returns the normalised flags. */
export function checkRegex(pattern: unknown, options: unknown): { pattern: string; flags: string } {
  if (typeof pattern !== 'string') throw badRequest(QUERY_TEXT.badOperand('$regex', 'a string'))
  if (pattern.length > REGEX_MAX_LENGTH) throw badRequest(QUERY_TEXT.regexTooLong(REGEX_MAX_LENGTH))
  const flags = options === undefined ? '' : options
  if (typeof flags !== 'string' || !ALLOWED_FLAGS.test(flags) || new Set(flags).size !== flags.length) {
    throw badRequest(QUERY_TEXT.regexOptions)
  }
  try {
    // Compiling (never running) a JavaScript RegExp is linear: it only reports the syntax error.
    new RegExp(pattern, flags)
  } catch (error) {
    throw badRequest(QUERY_TEXT.regexInvalid((error as Error).message))
  }
  compile(pattern, flags)
  return { pattern, flags }
}

/** Whether the text matches: the SQLite function's body, also for any other server-side match. */
export function regexMatches(pattern: string, flags: string, value: string): boolean {
  let matcher: Matcher
  try {
    matcher = compile(pattern, flags)
  } catch {
    return false
  }
  return matcher.test(value)
}

/** Registers the regex function on a SQLite connection; the store calls it once when it opens. */
export function registerQueryFunctions(db: Database): void {
  db.function(REGEXP_FUNCTION, { deterministic: true, varargs: false }, (pattern, flags, value) => {
    if (typeof pattern !== 'string' || typeof flags !== 'string' || typeof value !== 'string') return 0
    return regexMatches(pattern, flags, value) ? 1 : 0
  })
}
