/**
 * $regex on PostgreSQL: the pattern has already passed checkRegex (query-regex.ts: length, flags,
 * syntax, no nested repetition), and is rewritten here from JavaScript syntax into an equivalent
 * PostgreSQL ARE, so both stores answer the same filter the same way without calling back into
 * JavaScript. Where the two dialects differ, the JavaScript meaning is spelled out explicitly:
 * `\d \w \s` are JavaScript's sets (ARE's `\w` would also take é), `\b` is a word boundary (in an ARE it
 * is a backspace), `.` excludes line terminators unless `s`, `^ $` with `m` also match at line breaks.
 * Features with no exact ARE equivalent (`\c`, `\k<name>`, `\u{…}`) are refused with a 400.
 */
import { QUERY_TEXT } from '../../shared/messages'
import { badRequest } from '../errors'

const LINE_TERMINATORS = '\\n\\r\\u2028\\u2029'
const DIGIT = '0-9'
const WORD = 'A-Za-z0-9_'
const SPACE = ' \\t\\n\\v\\f\\r\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff'
const CLASSES: Record<string, string> = { d: DIGIT, w: WORD, s: SPACE }
const BOUNDARY = `(?:(?<=[${WORD}])(?![${WORD}])|(?<![${WORD}])(?=[${WORD}]))`
const NOT_BOUNDARY = `(?:(?<=[${WORD}])(?=[${WORD}])|(?<![${WORD}])(?![${WORD}]))`
const SIMPLE_ESCAPES = new Set(['n', 'r', 't', 'f', 'v'])

function unsupported(what: string): never {
  throw badRequest(QUERY_TEXT.regexInvalid(`${what} is not supported`))
}

function hex(code: number): string {
  return `\\u${code.toString(16).padStart(4, '0')}`
}

/** One escape after `\` at pattern[i]; returns the ARE text and how many characters it used. */
function translateEscape(
  pattern: string,
  i: number,
  inClass: boolean,
): { out: string; used: number; negated?: string } {
  const c = pattern[i]
  if (c === undefined) unsupported('a trailing backslash')
  const lower = c.toLowerCase()
  if (CLASSES[lower]) {
    if (c === lower) return { out: inClass ? CLASSES[c]! : `[${CLASSES[c]}]`, used: 1 }
    return inClass ? { out: '', used: 1, negated: CLASSES[lower] } : { out: `[^${CLASSES[lower]}]`, used: 1 }
  }
  if (c === 'b') return { out: inClass ? '\\u0008' : BOUNDARY, used: 1 }
  if (c === 'B' && !inClass) return { out: NOT_BOUNDARY, used: 1 }
  if (SIMPLE_ESCAPES.has(c)) return { out: `\\${c}`, used: 1 }
  if (c === '0' && !/[0-9]/.test(pattern[i + 1] ?? '')) return { out: '\\u0000', used: 1 }
  if (/[1-9]/.test(c) && !inClass) {
    const digits = /^[0-9]+/.exec(pattern.slice(i))![0]
    return { out: `\\${digits}`, used: digits.length }
  }
  if (c === 'x' && /^[0-9a-fA-F]{2}$/.test(pattern.slice(i + 1, i + 3))) {
    return { out: hex(Number.parseInt(pattern.slice(i + 1, i + 3), 16)), used: 3 }
  }
  if (c === 'u' && /^[0-9a-fA-F]{4}$/.test(pattern.slice(i + 1, i + 5))) {
    return { out: `\\u${pattern.slice(i + 1, i + 5)}`, used: 5 }
  }
  if (c === 'c' || c === 'k' || c === 'u' || c === 'p' || c === 'P') unsupported(`\\${c}`)
  // Any other escaped character stands for itself (JavaScript without the u flag).
  return { out: literal(c), used: 1 }
}

/** A literal character, escaped when the ARE would read it as syntax. */
function literal(c: string): string {
  if (/[A-Za-z0-9]/.test(c)) return c
  if (/[\\^$.[\]()|*+?{}]/.test(c)) return `\\${c}`
  const code = c.charCodeAt(0)
  return code < 0x20 ? hex(code) : c
}

/** A bracket expression starting after `[`; returns the ARE text and the index after `]`. */
function bracket(pattern: string, start: number): { out: string; end: number } {
  let i = start
  const negate = pattern[i] === '^'
  if (negate) i++
  let items = ''
  const negatedSets: string[] = []
  while (i < pattern.length && pattern[i] !== ']') {
    const c = pattern[i]!
    if (c === '\\') {
      const e = translateEscape(pattern, i + 1, true)
      items += e.out
      if (e.negated) negatedSets.push(e.negated)
      i += 1 + e.used
    } else {
      items += c === '-' && items !== '' && pattern[i + 1] !== ']' ? '-' : literal(c)
      i++
    }
  }
  if (i >= pattern.length) unsupported('an unterminated character class')
  const end = i + 1
  if (negatedSets.length > 0) {
    if (negate) unsupported('\\D, \\W or \\S inside a negated character class')
    const alternatives = [items ? `[${items}]` : '', ...negatedSets.map((s) => `[^${s}]`)].filter(Boolean)
    return { out: `(?:${alternatives.join('|')})`, end }
  }
  // JavaScript: [] matches nothing, [^] matches any character.
  if (items === '') return { out: negate ? '[\\s\\S]' : '(?!)', end }
  return { out: `[${negate ? '^' : ''}${items}]`, end }
}

/** JavaScript pattern + flags (i, m, s) → PostgreSQL ARE with the same matches. */
export function toPostgresRegex(pattern: string, flags: string): string {
  const multiline = flags.includes('m')
  const dotAll = flags.includes('s')
  let out = flags.includes('i') ? '(?i)' : ''
  let i = 0
  while (i < pattern.length) {
    const c = pattern[i]!
    if (c === '\\') {
      const e = translateEscape(pattern, i + 1, false)
      out += e.out
      i += 1 + e.used
    } else if (c === '[') {
      const b = bracket(pattern, i + 1)
      out += b.out
      i = b.end
    } else if (c === '.') {
      out += dotAll ? '[\\s\\S]' : `[^${LINE_TERMINATORS}]`
      i++
    } else if (c === '^') {
      out += multiline ? `(?:^|(?<=[${LINE_TERMINATORS}]))` : '^'
      i++
    } else if (c === '$') {
      out += multiline ? `(?:$|(?=[${LINE_TERMINATORS}]))` : '$'
      i++
    } else if (c === '(') {
      const named = /^\(\?<([A-Za-z_$][\w$]*)>/.exec(pattern.slice(i))
      if (named) {
        // A named group matches like a plain one; only \k<name> would need the name.
        out += '('
        i += named[0].length
      } else {
        const head = /^\((\?(:|=|!|<=|<!))?/.exec(pattern.slice(i))![0]
        out += head
        i += head.length
      }
    } else if (c === '{') {
      const bound = /^\{\d+(,\d*)?\}/.exec(pattern.slice(i))
      out += bound ? bound[0] : '\\{'
      i += bound ? bound[0].length : 1
    } else if (c === '}' || c === ']') {
      out += `\\${c}`
      i++
    } else if ('*+?|)'.includes(c)) {
      out += c
      i++
    } else {
      out += literal(c)
      i++
    }
  }
  return out
}
