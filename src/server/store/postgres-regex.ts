/**
 * $regex on PostgreSQL: the pattern has already passed checkRegex (query-regex.ts: length, flags,
 * syntax, and RE2's grammar, so no backreference or lookahead reaches the database), and is rewritten
 * here from JavaScript syntax into an equivalent PostgreSQL ARE (regex-translate.ts), so both stores
 * answer the same filter the same way without calling back into JavaScript. The ARE spells `\b` with
 * lookarounds (in an ARE `\b` is a backspace) and the m flag's anchors with lookarounds: `^` after any of
 * JavaScript's line terminators, `$` before `\n` only (RE2 has no lookahead; query-regex.ts). The time
 * an ARE may take is bounded by postgres.ts, which runs such reads under REGEX_STATEMENT_TIMEOUT_MS.
 */
import type pg from 'pg'
import { QUERY_TEXT } from '../../shared/texts'
import { badRequest } from '../errors'
import { type RegexDialect, translateRegex, WORD } from './regex-translate'

/**
 * Hard bound on a read whose filter holds a $regex. Patterns that reach PostgreSQL passed RE2's grammar
 * (no backreferences, the one exponential case of an ARE), so this should never fire; it is there so
 * that no pattern can hold a pooled connection and a database core for long (issue 10). Generous,
 * because a legitimate regex scan of a large collection is slow too, and a refusal loses the answer.
 */
export const REGEX_STATEMENT_TIMEOUT_MS = 10_000

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

/** Whether a filter holds a $regex anywhere (a field value spelling "$regex" only adds the bound). */
export function hasRegex(filter: unknown): boolean {
  return filter !== undefined && JSON.stringify(filter).includes('"$regex"')
}

/**
 * One read in a read-only transaction that PostgreSQL cancels after REGEX_STATEMENT_TIMEOUT_MS; the
 * cancel (SQLSTATE 57014) answers 400 regexTooSlow, other errors go through the store's `asApiError`.
 */
export async function regexBoundedQuery<R extends pg.QueryResultRow>(
  pool: pg.Pool,
  text: string,
  params: unknown[],
  asApiError: (error: unknown) => unknown,
  ms = REGEX_STATEMENT_TIMEOUT_MS,
): Promise<pg.QueryResult<R>> {
  const client = await pool.connect()
  try {
    await client.query('BEGIN READ ONLY')
    await client.query(`SET LOCAL statement_timeout = ${Math.floor(ms)}`)
    const result = await client.query<R>(text, params)
    await client.query('COMMIT')
    return result
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {})
    if ((error as { code?: string }).code === '57014') throw badRequest(QUERY_TEXT.regexTooSlow)
    throw asApiError(error)
  } finally {
    client.release()
  }
}
