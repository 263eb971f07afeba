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

/** `(a) AND (b)`; an empty list is true. */
export function and(parts: readonly Sql[]): Sql {
  if (parts.length === 0) return raw('1')
  if (parts.length === 1) return parts[0]!
  return join(
    parts.map((p) => sql`(${p})`),
    ' AND ',
  )
}

/** `(a) OR (b)`; an empty list is false. */
export function or(parts: readonly Sql[]): Sql {
  if (parts.length === 0) return raw('0')
  if (parts.length === 1) return parts[0]!
  return join(
    parts.map((p) => sql`(${p})`),
    ' OR ',
  )
}

export function not(part: Sql): Sql {
  return sql`NOT (${part})`
}
