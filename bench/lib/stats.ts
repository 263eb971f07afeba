/** Small statistics for the benchmarks: every figure is reported with the baseline it is divided by. */

export function percentile(values: readonly number[], p: number): number {
  if (!values.length) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  return sorted[rank]!
}

export const median = (values: readonly number[]): number => percentile(values, 50)

export const ratio = (value: number, baseline: number): number =>
  baseline > 0 ? Math.round((value / baseline) * 100) / 100 : Number.NaN

export const round = (n: number, digits = 1): number => {
  const f = 10 ** digits
  return Math.round(n * f) / f
}

/** One line of the results: a figure, its baseline, and value / baseline. */
export interface Row {
  bench: string
  metric: string
  value: number
  unit: string
  baseline: string
  baselineValue: number
  ratio: number
  /** What the issue asks for, e.g. "≤ 1.5"; empty when it sets no target. */
  target?: string
  note?: string
}

export function row(r: Omit<Row, 'ratio'> & { ratio?: number }): Row {
  return {
    ...r,
    value: round(r.value, 2),
    baselineValue: round(r.baselineValue, 2),
    ratio: r.ratio ?? ratio(r.value, r.baselineValue),
  }
}

export function table(rows: readonly Row[]): string {
  const head = ['bench', 'metric', 'value', 'baseline', 'ratio', 'target']
  const lines = rows.map((r) => [
    r.bench,
    r.metric,
    `${r.value.toLocaleString('en-US')} ${r.unit}`,
    `${r.baseline}: ${r.baselineValue.toLocaleString('en-US')} ${r.unit}`,
    Number.isNaN(r.ratio) ? '–' : `${r.ratio}x`,
    r.target ?? '',
  ])
  const widths = head.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)))
  const fmt = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ')
  return [fmt(head), widths.map((w) => '-'.repeat(w)).join('  '), ...lines.map(fmt)].join('\n')
}

/** The same rows as a Markdown table, for docs/contributing/performance.md. */
export function markdown(rows: readonly Row[]): string {
  const esc = (s: string) => s.replace(/\|/g, '\\|')
  return [
    '| benchmark | measure | value | baseline | ratio | target |',
    '|---|---|---:|---|---:|---|',
    ...rows.map(
      (r) =>
        `| ${esc(r.bench)} | ${esc(r.metric)} | ${r.value.toLocaleString('en-US')} ${r.unit} | ${esc(r.baseline)}: ${r.baselineValue.toLocaleString('en-US')} ${r.unit} | ${Number.isNaN(r.ratio) ? '–' : `${r.ratio}x`} | ${r.target ?? ''} |`,
    ),
  ].join('\n')
}
