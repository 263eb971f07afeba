/**
 * Composable SQL fragments for the PostgreSQL query compiler, the same idea as query-sql.ts (text plus
 * parameters; a request value can only ever become a parameter, `raw()` is for constants written in
 * the compiler) but with PostgreSQL's booleans (TRUE/FALSE, not 1/0) and `$n` placeholders, numbered
 * once when the whole statement is finished.
 */

/** Marks a parameter slot until `numbered()`; a character the compiler's constant SQL never contains. */
const SLOT = '\u0000'

export class PgSql {
  constructor(
    readonly text: string,
    readonly params: readonly unknown[],
  ) {}
}

function bindable(value: unknown): boolean {
  return (
    value === null ||
    typeof value === 'string' ||
    typeof value === 'number' ||
    typeof value === 'boolean' ||
    (Array.isArray(value) && value.every((v) => typeof v === 'string'))
  )
}

export function pgsql(strings: TemplateStringsArray, ...values: unknown[]): PgSql {
  let text = strings[0]!
  const params: unknown[] = []
  values.forEach((value, i) => {
    if (value instanceof PgSql) {
      text += value.text
      params.push(...value.params)
    } else {
      if (!bindable(value)) throw new Error(`query compiler: cannot bind ${typeof value}`)
      text += SLOT
      params.push(value)
    }
    text += strings[i + 1]!
  })
  return new PgSql(text, params)
}

export function pgraw(text: string): PgSql {
  return new PgSql(text, [])
}

export const TRUE = pgraw('TRUE')
export const FALSE = pgraw('FALSE')

export function pgjoin(parts: readonly PgSql[], separator: string): PgSql {
  return new PgSql(
    parts.map((p) => p.text).join(separator),
    parts.flatMap((p) => p.params),
  )
}

export function pgand(parts: readonly PgSql[]): PgSql {
  if (parts.length === 0) return TRUE
  if (parts.length === 1) return parts[0]!
  return pgjoin(
    parts.map((p) => pgsql`(${p})`),
    ' AND ',
  )
}

export function pgor(parts: readonly PgSql[]): PgSql {
  if (parts.length === 0) return FALSE
  if (parts.length === 1) return parts[0]!
  return pgjoin(
    parts.map((p) => pgsql`(${p})`),
    ' OR ',
  )
}

export function pgnot(part: PgSql): PgSql {
  return pgsql`NOT (${part})`
}

/** Final text with `$1…$n` placeholders, numbered from `first` (after the caller's own parameters). */
export function numbered(fragment: PgSql, first = 1): { text: string; params: unknown[] } {
  let n = first
  return { text: fragment.text.replaceAll(SLOT, () => `$${n++}`), params: [...fragment.params] }
}
