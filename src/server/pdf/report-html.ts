/**
 * A computed report as a printable HTML page, for its PDF (docs/using/reports.md#pdf): the title, a summary
 * of the definition, when it was generated, how many documents matched, and the table. Every value
 * comes from documents or a definition someone else wrote, so every one is escaped: the PDF renderer
 * runs HTML with JavaScript and network off, but markup in a value must still print as text, not
 * restyle or hide the figures. Cells are formatted as the console shows them (cellText).
 */
import {
  aggregateKey,
  type Condition,
  cellText,
  type ReportDefinition,
  type ReportResult,
} from '../../shared/reports'
import { escapeHtml } from '../mail/templates'

const STYLE = `
  body { font: 11px/1.4 system-ui, sans-serif; color: #111; margin: 0; }
  h1 { font-size: 18px; margin: 0 0 4px; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 8px 0 12px; }
  dt { color: #555; } dd { margin: 0; }
  table { border-collapse: collapse; width: 100%; }
  th, td { border-bottom: 1px solid #ccc; padding: 4px 6px; text-align: left; vertical-align: top; }
  th { background: #f2f2f2; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
  thead { display: table-header-group; } tr { break-inside: avoid; }
`

const conditionText = (c: Condition): string =>
  c.op === 'exists' || c.op === 'missing'
    ? `${c.field} ${c.op}`
    : `${c.field} ${c.op} ${JSON.stringify(c.value)}`

export function reportHtml(
  def: ReportDefinition,
  result: ReportResult,
  name: string,
  generated: Date,
): string {
  const e = (v: unknown) => escapeHtml(String(v))
  const title = def.title || name
  const summary: Array<[string, string]> = [
    ['Collection', def.collection],
    ['Filter', def.filter.map(conditionText).join(' and ') || 'all documents'],
    ['Group by', def.groupBy.join(', ') || 'none'],
    ['Aggregates', def.aggregates.map(aggregateKey).join(', ')],
    ...(def.sort ? [['Sort', `${def.sort.key} ${def.sort.dir}`] as [string, string]] : []),
    ...(def.limit ? [['Rows', `first ${def.limit}`] as [string, string]] : []),
    ['Matched', `${result.matched} documents`],
    [
      'Generated',
      generated
        .toISOString()
        .replace('T', ' ')
        .replace(/\.\d+Z$/, ' UTC'),
    ],
  ]
  const head = result.columns.map((c) => `<th>${e(c.label)}</th>`).join('')
  const body = result.rows
    .map(
      (row) =>
        `<tr>${result.columns
          .map(
            (c) =>
              `<td${typeof row[c.key] === 'number' ? ' class="num"' : ''}>${e(cellText(row[c.key]))}</td>`,
          )
          .join('')}</tr>`,
    )
    .join('\n')
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>${e(title)}</title><style>${STYLE}</style></head>
<body>
<h1>${e(title)}</h1>
<dl>${summary.map(([k, v]) => `<dt>${e(k)}</dt><dd>${e(v)}</dd>`).join('')}</dl>
<table><thead><tr>${head}</tr></thead>
<tbody>
${body || `<tr><td colspan="${result.columns.length}">No rows</td></tr>`}
</tbody></table>
</body></html>`
}
