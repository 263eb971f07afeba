/**
 * Composable SQL fragments for the query compiler. A fragment is SQL text plus its parameters in
 * order; the `sql` template tag inlines nested fragments and turns every other interpolated value into
 * a `?` parameter. So a value or a field path from a request can only ever become a parameter: the one
 * way to put text into SQL is `raw()`, used only with constants written in the compiler itself.
 */

export class Sql {
  constructor(
    readonly text: string,
    readonly params: readonly unknown[],
  ) {}
}

/** SQLite binds numbers, strings, bigints and null; anything else is a bug in the compiler. */
function bindable(value: unknown): boolean {
  return value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint'
}

export function sql(strings: TemplateStringsArray, ...values: unknown[]): Sql {
  let text = strings[0]!
  const params: unknown[] = []
  values.forEach((value, i) => {
    if (value instanceof Sql) {
      text += value.text
      params.push(...value.params)
    } else {
      if (!bindable(value)) throw new Error(`query compiler: cannot bind ${typeof value}`)
      text += '?'
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

/** Up to this many terms are joined flat; longer lists are split in halves (see `balanced`). */
const FLAT_TERMS = 16

/**
 * `(a) OP (b) OP …`. SQLite parses a flat chain left-deep, so 1,000 terms (a `$in` of 1,000 objects)
 * exceed its expression depth limit of 1,000 and the statement fails (issue 10: a 500). Long lists
 * are therefore nested in halves, which keeps the depth at log2 of the length.
 */
function balanced(parts: readonly Sql[], op: ' AND ' | ' OR '): Sql {
  if (parts.length === 1) return parts[0]!
  if (parts.length <= FLAT_TERMS) {
    return join(
      parts.map((p) => sql`(${p})`),
      op,
    )
  }
  const mid = Math.ceil(parts.length / 2)
  return join([sql`(${balanced(parts.slice(0, mid), op)})`, sql`(${balanced(parts.slice(mid), op)})`], op)
}

/** `(a) AND (b)`; an empty list is true. */
export function and(parts: readonly Sql[]): Sql {
  if (parts.length === 0) return raw('1')
  return balanced(parts, ' AND ')
}

/** `(a) OR (b)`; an empty list is false. */
export function or(parts: readonly Sql[]): Sql {
  if (parts.length === 0) return raw('0')
  return balanced(parts, ' OR ')
}

export function not(part: Sql): Sql {
  return sql`NOT (${part})`
}
