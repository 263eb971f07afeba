/**
 * $regex patterns are written in JavaScript syntax (MongoDB's habit) but never run on JavaScript's
 * backtracking engine (issue 10: `.*.*.*x` over a 500-character line froze the server). They are
 * rewritten into the dialect of the engine that runs them — RE2 for SQLite (query-regex.ts), the ARE of
 * PostgreSQL (postgres-regex.ts) — with the JavaScript meaning spelled out where the dialects differ:
 * `\d \w \s` are JavaScript's sets (an ARE's `\w` would also take é), `\b` is an ASCII word boundary,
 * `.` excludes line terminators unless `s`, `^ $` with `m` also match at line breaks. Features with no
 * exact equivalent (`\c`, `\k<name>`, `\u{…}`, `\p`) and lookbehind are refused with a 400.
 */
import { QUERY_TEXT } from '../../shared/texts'
import { badRequest } from '../errors'

/** What differs between the target dialects; everything else is written the same in both. */
export interface RegexDialect {
  /** One code point inside or outside a bracket expression. */
  hex(code: number): string
  /** `\b` and `\B` with JavaScript's (ASCII) word characters. */
  boundary: string
  notBoundary: string
  /** `^` and `$` under the m flag, given the bracket contents of the line terminators. */
  lineStart(terminators: string): string
  lineEnd(terminators: string): string
  /** `[]`: matches nothing. */
  never: string
}

/** JavaScript's word characters (without the u flag), for `\\w` and word boundaries. */
export const WORD = 'A-Za-z0-9_'
const SIMPLE_ESCAPES = new Set(['n', 'r', 't', 'f', 'v'])
/** JavaScript's line terminators and white space (ECMA-262), as code points. */
const LINE_TERMINATORS = [0x0a, 0x0d, 0x2028, 0x2029]
const SPACE_EXTRA = [0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff]

function unsupported(what: string): never {
  throw badRequest(QUERY_TEXT.regexInvalid(`${what} is not supported`))
}

class Translator {
  private readonly classes: Record<string, string>
  private readonly terminators: string

  constructor(private readonly d: RegexDialect) {
    const space = ` \\t\\n\\v\\f\\r${SPACE_EXTRA.map((c) => d.hex(c)).join('')}${d.hex(0x2000)}-${d.hex(0x200a)}`
    this.classes = { d: '0-9', w: WORD, s: space }
    this.terminators = LINE_TERMINATORS.map((c) => (c < 0x20 ? (c === 0x0a ? '\\n' : '\\r') : d.hex(c))).join(
      '',
    )
  }

  /** A literal character, escaped when the target would read it as syntax. */
  literal(c: string): string {
    if (/[A-Za-z0-9]/.test(c)) return c
    if (/[\\^$.[\]()|*+?{}]/.test(c)) return `\\${c}`
    const code = c.charCodeAt(0)
    return code < 0x20 ? this.d.hex(code) : c
  }

  /** One escape after `\` at pattern[i]; returns the target text and how many characters it used. */
  escape(pattern: string, i: number, inClass: boolean): { out: string; used: number; negated?: string } {
    const c = pattern[i]
    if (c === undefined) unsupported('a trailing backslash')
    const lower = c.toLowerCase()
    const set = this.classes[lower]
    if (set) {
      if (c === lower) return { out: inClass ? set : `[${set}]`, used: 1 }
      return inClass ? { out: '', used: 1, negated: set } : { out: `[^${set}]`, used: 1 }
    }
    if (c === 'b') return { out: inClass ? this.d.hex(8) : this.d.boundary, used: 1 }
    if (c === 'B' && !inClass) return { out: this.d.notBoundary, used: 1 }
    if (SIMPLE_ESCAPES.has(c)) return { out: `\\${c}`, used: 1 }
    if (c === '0' && !/[0-9]/.test(pattern[i + 1] ?? '')) return { out: this.d.hex(0), used: 1 }
    if (/[1-9]/.test(c) && !inClass) {
      const digits = /^[0-9]+/.exec(pattern.slice(i))![0]
      return { out: `\\${digits}`, used: digits.length }
    }
    if (c === 'x' && /^[0-9a-fA-F]{2}$/.test(pattern.slice(i + 1, i + 3))) {
      return { out: this.d.hex(Number.parseInt(pattern.slice(i + 1, i + 3), 16)), used: 3 }
    }
    if (c === 'u' && /^[0-9a-fA-F]{4}$/.test(pattern.slice(i + 1, i + 5))) {
      return { out: this.d.hex(Number.parseInt(pattern.slice(i + 1, i + 5), 16)), used: 5 }
    }
    if (c === 'c' || c === 'k' || c === 'u' || c === 'p' || c === 'P') unsupported(`\\${c}`)
    // Any other escaped character stands for itself (JavaScript without the u flag).
    return { out: this.literal(c), used: 1 }
  }

  /** A bracket expression starting after `[`; returns the target text and the index after `]`. */
  bracket(pattern: string, start: number): { out: string; end: number } {
    let i = start
    const negate = pattern[i] === '^'
    if (negate) i++
    let items = ''
    const negatedSets: string[] = []
    while (i < pattern.length && pattern[i] !== ']') {
      const c = pattern[i]!
      if (c === '\\') {
        const e = this.escape(pattern, i + 1, true)
        items += e.out
        if (e.negated) negatedSets.push(e.negated)
        i += 1 + e.used
      } else {
        items += c === '-' && items !== '' && pattern[i + 1] !== ']' ? '-' : this.literal(c)
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
    if (items === '') return { out: negate ? '[\\s\\S]' : this.d.never, end }
    return { out: `[${negate ? '^' : ''}${items}]`, end }
  }

  translate(pattern: string, flags: string): string {
    const multiline = flags.includes('m')
    const dotAll = flags.includes('s')
    let out = flags.includes('i') ? '(?i)' : ''
    let i = 0
    while (i < pattern.length) {
      const c = pattern[i]!
      if (c === '\\') {
        const e = this.escape(pattern, i + 1, false)
        out += e.out
        i += 1 + e.used
      } else if (c === '[') {
        const b = this.bracket(pattern, i + 1)
        out += b.out
        i = b.end
      } else if (c === '.') {
        out += dotAll ? '[\\s\\S]' : `[^${this.terminators}]`
        i++
      } else if (c === '^') {
        out += multiline ? this.d.lineStart(this.terminators) : '^'
        i++
      } else if (c === '$') {
        out += multiline ? this.d.lineEnd(this.terminators) : '$'
        i++
      } else if (c === '(') {
        const named = /^\(\?<([A-Za-z_$][\w$]*)>/.exec(pattern.slice(i))
        if (named) {
          // A named group matches like a plain one; only \k<name> would need the name.
          out += '('
          i += named[0].length
        } else {
          const head = /^\((\?(:|=|!|<=|<!))?/.exec(pattern.slice(i))![0]
          // re2js runs lookbehind (the m flag's `^` needs it), but a user's is refused as lookahead is
          // (by RE2): the stores answer alike, and the documented grammar stays RE2's.
          if (head === '(?<=' || head === '(?<!') unsupported(`Lookbehind ${head}…)`)
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
        out += this.literal(c)
        i++
      }
    }
    return out
  }
}

/** A JavaScript pattern + flags (i, m, s) → the dialect's pattern with the same matches. */
export function translateRegex(pattern: string, flags: string, dialect: RegexDialect): string {
  return new Translator(dialect).translate(pattern, flags)
}
