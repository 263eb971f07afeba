/**
 * Parsing for the JSON editor: a document must be one JSON object, and a syntax error is reported with
 * its line and column (V8 gives a character position; people think in lines).
 */
export type JsonResult = { ok: true; value: Record<string, unknown> } | { ok: false; error: string }

export function parseJsonObject(text: string): JsonResult {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (e) {
    return { ok: false, error: describe(text, e instanceof Error ? e.message : String(e)) }
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return { ok: false, error: 'A document must be a JSON object: { "field": value, … }' }
  return { ok: true, value: value as Record<string, unknown> }
}

function describe(text: string, message: string): string {
  const pos = errorOffset(text)
  const cleaned = message
    .replace(/ in JSON at position \d+.*$/, '')
    .replace(/, "[\s\S]*" is not valid JSON$/, '')
  const before = text.slice(0, pos).split('\n')
  return `Invalid JSON at line ${before.length}, column ${before.at(-1)!.length + 1}: ${cleaned}`
}

/**
 * Where a JSON text first goes wrong: a small recursive scan of the grammar, since V8's messages carry
 * a position for some errors and only a snippet for others.
 */
export function errorOffset(text: string): number {
  let i = 0
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++
  }
  const fail = (): never => {
    throw i
  }
  const literal = (word: string) => {
    if (text.startsWith(word, i)) i += word.length
    else fail()
  }
  const string = () => {
    i++
    while (i < text.length && text[i] !== '"') {
      if (text[i] === '\\') i++
      else if (text.charCodeAt(i) < 0x20) fail()
      i++
    }
    if (i >= text.length) fail()
    i++
  }
  const number = () => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i))
    if (!m) fail()
    i += m![0].length
  }
  const value = (): void => {
    ws()
    const c = text[i]
    if (c === '{') {
      i++
      ws()
      if (text[i] === '}') {
        i++
        return
      }
      for (;;) {
        ws()
        if (text[i] !== '"') fail()
        string()
        ws()
        if (text[i] !== ':') fail()
        i++
        value()
        ws()
        if (text[i] === ',') i++
        else if (text[i] === '}') {
          i++
          return
        } else fail()
      }
    }
    if (c === '[') {
      i++
      ws()
      if (text[i] === ']') {
        i++
        return
      }
      for (;;) {
        value()
        ws()
        if (text[i] === ',') i++
        else if (text[i] === ']') {
          i++
          return
        } else fail()
      }
    }
    if (c === '"') string()
    else if (c === 't') literal('true')
    else if (c === 'f') literal('false')
    else if (c === 'n') literal('null')
    else number()
  }
  try {
    value()
    ws()
    if (i < text.length) fail()
    return text.length
  } catch (at) {
    return typeof at === 'number' ? Math.min(at, text.length) : 0
  }
}

export const prettyJson = (value: unknown): string => JSON.stringify(value, null, 2)
