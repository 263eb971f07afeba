/**
 * A chain of references that comes back to where it started, among the layouts and partials a job
 * read (and the part's own source as its start): "partial/row → partial/row". Only literal names are
 * seen; a loop is the usual reason a limit stops such a render, and saying so beats "too much output".
 * Used in the worker (after LiquidJS's own limit stopped the render) and by the pool (after the worker
 * itself died of its heap cap or the hard time limit, when the worker can no longer say it).
 */

/** Names a source refers to by a literal: `{% include 'x' %}`, `{% render "x" %}`, `{% layout 'x' %}`. */
const REFERENCE = /\{%-?\s*(include|render|layout)\s+(['"])([^'"]+)\2/g

/** `sources`: what each `dir/name` read by the job held. */
export function referenceCycle(start: string, sources: ReadonlyMap<string, string>): string | null {
  const refs = (source: string) =>
    [...source.matchAll(REFERENCE)].map((m) => `${m[1] === 'layout' ? 'layout' : 'partial'}/${m[3]}`)
  const visit = (file: string, path: string[]): string[] | null => {
    if (path.includes(file)) return [...path.slice(path.indexOf(file)), file]
    const source = sources.get(file)
    if (source === undefined) return null
    for (const next of refs(source)) {
      const cycle = visit(next, [...path, file])
      if (cycle) return cycle
    }
    return null
  }
  for (const first of refs(start)) {
    const cycle = visit(first, [])
    if (cycle) return cycle.join(' → ')
  }
  return null
}
