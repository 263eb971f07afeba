/**
 * $regex on PostgreSQL: the pattern has already passed checkRegex (query-regex.ts: length, flags,
 * syntax, and RE2's grammar, so no backreference or lookahead reaches the database), and is rewritten
 * here from JavaScript syntax into an equivalent PostgreSQL ARE (regex-translate.ts), so both stores
 * answer the same filter the same way without calling back into JavaScript. The ARE spells `\b` with
 * lookarounds (in an ARE `\b` is a backspace) and the m flag's anchors with lookarounds: `^` after any of
 * JavaScript's line terminators, `$` before `\n` only (RE2 has no lookahead; query-regex.ts). The time
 * an ARE may take is bounded by postgres.ts, which runs such reads under REGEX_STATEMENT_TIMEOUT_MS.
 */
import { type RegexDialect, translateRegex, WORD } from './regex-translate'

const POSTGRES: RegexDialect = {
  hex: (code) => `\\u${code.toString(16).padStart(4, '0')}`,
  boundary: `(?:(?<=[${WORD}])(?![${WORD}])|(?<![${WORD}])(?=[${WORD}]))`,
  notBoundary: `(?:(?<=[${WORD}])(?=[${WORD}])|(?<![${WORD}])(?![${WORD}]))`,
  lineStart: (t) => `(?:^|(?<=[${t}]))`,
  // Before `\n` only, as RE2 (query-regex.ts) can: both stores must answer a filter alike.
  lineEnd: () => '(?:$|(?=\\n))',
  never: '(?!)',
}

/** JavaScript pattern + flags (i, m, s) → PostgreSQL ARE with the same matches. */
export function toPostgresRegex(pattern: string, flags: string): string {
  return translateRegex(pattern, flags, POSTGRES)
}
