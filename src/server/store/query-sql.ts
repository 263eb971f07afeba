/**
 * Composable SQL fragments for the query compiler (query.ts), the same for both stores. A fragment is
 * SQL text plus its parameters in order; the `sql` template tag inlines nested fragments and turns every
 * other interpolated value into a parameter slot. So a value or a field path from a request can only
 * ever become a parameter: the one way to put text into SQL is `raw()`, used only with constants written
 * in the compiler and its dialects. The slots become `?` or `$1…$n` once, when the statement is finished
 * (`finish`), so fragments nest freely whatever the placeholder style.
 */

/** Marks a parameter slot until `finish`; a character the compiler's constant SQL never contains. */
const SLOT = '\u0000'

export class Sql {
  constructor(
    readonly text: string,
    readonly params: readonly unknown[],
  ) {}
}

export function sql(strings: TemplateStringsArray, ...values: unknown[]): Sql {
  let text = strings[0]!
  const params: unknown[] = []
  values.forEach((value, i) => {
    if (value instanceof Sql) {
      text += value.text
      params.push(...value.params)
    } else {
      text += SLOT
      params.push(value)
    }
    text += strings[i + 1]!
  })
  return new Sql(text, params)
}

/** Constant SQL written in this codebase (operators, generated aliases). Never request data. */
export function raw(text: string): Sql {
  return new Sql(text, [])
}

export function join(parts: readonly Sql[], separator: string): Sql {
  return new Sql(
    parts.map((p) => p.text).join(separator),
    parts.flatMap((p) => p.params),
  )
}

/** A dialect's boolean algebra: its spelling of true and false, and how long a flat chain may be. */
export interface Logic {
  readonly true: Sql
  readonly false: Sql
  /** `(a) AND (b)`; an empty list is true. */
  and(parts: readonly Sql[]): Sql
  /** `(a) OR (b)`; an empty list is false. */
  or(parts: readonly Sql[]): Sql
  not(part: Sql): Sql
}

/**
 * `(a) OP (b) OP …`, at most `flatTerms` terms flat; longer lists are nested in halves. SQLite parses a
 * flat chain left-deep, so 1,000 terms (a `$in` of 1,000 objects) exceed its expression depth limit of
 * 1,000 and the statement fails (issue 10: a 500); halves keep the depth at log2 of the length.
 * PostgreSQL has no such limit and keeps its chains flat (`Infinity`).
 */
function balanced(parts: readonly Sql[], op: ' AND ' | ' OR ', flatTerms: number): Sql {
  if (parts.length === 1) return parts[0]!
  if (parts.length <= flatTerms) {
    return join(
      parts.map((p) => sql`(${p})`),
      op,
    )
  }
  const mid = Math.ceil(parts.length / 2)
  return join(
    [
      sql`(${balanced(parts.slice(0, mid), op, flatTerms)})`,
      sql`(${balanced(parts.slice(mid), op, flatTerms)})`,
    ],
    op,
  )
}

export function logic(spelling: { true: string; false: string; flatTerms: number }): Logic {
  const yes = raw(spelling.true)
  const no = raw(spelling.false)
  return {
    true: yes,
    false: no,
    and: (parts) => (parts.length === 0 ? yes : balanced(parts, ' AND ', spelling.flatTerms)),
    or: (parts) => (parts.length === 0 ? no : balanced(parts, ' OR ', spelling.flatTerms)),
    not: (part) => sql`NOT (${part})`,
  }
}

/** A finished statement or condition: placeholders numbered, parameters ready to bind. */
export interface Compiled {
  text: string
  params: unknown[]
}

/**
 * The fragment's text with each slot spelled by `placeholder`: one string for all (`?`), or `$n`
 * numbered from `first` (after the caller's own parameters). `bindable` is the driver's rule: anything else is a compiler bug.
 */
export function finish(
  fragment: Sql,
  style: { placeholder: string | ((n: number) => string); bindable(value: unknown): boolean },
  first = 1,
): Compiled {
  for (const value of fragment.params) {
    if (!style.bindable(value)) throw new Error(`query compiler: cannot bind ${typeof value}`)
  }
  const { placeholder } = style
  let n = first
  const text =
    typeof placeholder === 'string'
      ? fragment.text.replaceAll(SLOT, placeholder)
      : fragment.text.replaceAll(SLOT, () => placeholder(n++))
  return { text, params: [...fragment.params] }
}
