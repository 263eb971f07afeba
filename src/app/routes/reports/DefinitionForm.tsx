/**
 * The report definition editor (issue 17): collection, filter conditions, group-by fields, aggregates,
 * sort, limit and view, as plain controls (every one reachable by keyboard). It edits a draft; the
 * screen checks it with the shared parseReport before computing or saving.
 */
import { Plus, X } from 'lucide-react'
import {
  AGGREGATE_OPS,
  type Aggregate,
  aggregateKey,
  CONDITION_OPS,
  type Condition,
  REPORT_VIEWS,
  type ReportDefinition,
} from '../../../shared/reports'
import { typedValue } from './report-data'

const OP_LABELS: Record<Condition['op'], string> = {
  eq: '=',
  ne: '≠',
  gt: '>',
  gte: '≥',
  lt: '<',
  lte: '≤',
  contains: 'contains',
  exists: 'exists',
  missing: 'is missing',
}

export interface Draft extends ReportDefinition {
  title?: string
}

export function DefinitionForm({ draft, onChange }: { draft: Draft; onChange: (next: Draft) => void }) {
  const set = (patch: Partial<Draft>) => onChange({ ...draft, ...patch })
  const setAggregate = (i: number, a: Aggregate) =>
    set({ aggregates: draft.aggregates.map((x, j) => (j === i ? a : x)) })
  const setCondition = (i: number, c: Condition) =>
    set({ filter: draft.filter.map((x, j) => (j === i ? c : x)) })
  const sortKeys = [...draft.groupBy, ...draft.aggregates.map(aggregateKey)]

  return (
    <div className="report-form">
      <div className="form-grid">
        <div className="field">
          <label htmlFor="report-title">Title</label>
          <input
            id="report-title"
            className="input"
            value={draft.title ?? ''}
            onChange={(e) => set({ title: e.target.value })}
          />
        </div>
        <div className="field">
          <label htmlFor="report-collection">Collection</label>
          <input
            id="report-collection"
            className="input"
            value={draft.collection}
            onChange={(e) => set({ collection: e.target.value.trim() })}
          />
        </div>
        <div className="field">
          <label htmlFor="report-group">Group by (fields, comma-separated)</label>
          <input
            id="report-group"
            className="input"
            value={draft.groupBy.join(', ')}
            onChange={(e) =>
              set({
                groupBy: e.target.value
                  .split(',')
                  .map((f) => f.trim())
                  .filter(Boolean),
              })
            }
          />
        </div>
        <div className="field">
          <label htmlFor="report-view">View</label>
          <select
            id="report-view"
            className="input"
            value={draft.view}
            onChange={(e) => set({ view: e.target.value as Draft['view'] })}
          >
            {REPORT_VIEWS.map((v) => (
              <option key={v} value={v}>
                {v}
              </option>
            ))}
          </select>
        </div>
      </div>

      <fieldset className="report-rows">
        <legend>Aggregates</legend>
        {draft.aggregates.map((a, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows are positions in the list being edited
          <div className="report-row" key={i}>
            <select
              className="input"
              aria-label={`Aggregate ${i + 1}`}
              value={a.op}
              onChange={(e) => {
                const op = e.target.value as Aggregate['op']
                setAggregate(i, op === 'count' ? { op } : { op, field: a.field ?? '' })
              }}
            >
              {AGGREGATE_OPS.map((op) => (
                <option key={op} value={op}>
                  {op}
                </option>
              ))}
            </select>
            {a.op !== 'count' && (
              <input
                className="input"
                aria-label={`Field of aggregate ${i + 1}`}
                placeholder="numeric field"
                value={a.field ?? ''}
                onChange={(e) => setAggregate(i, { op: a.op, field: e.target.value.trim() })}
              />
            )}
            <RemoveButton
              label={`Remove aggregate ${i + 1}`}
              onClick={() => set({ aggregates: draft.aggregates.filter((_, j) => j !== i) })}
            />
          </div>
        ))}
        <button
          type="button"
          className="button button-quiet"
          onClick={() => set({ aggregates: [...draft.aggregates, { op: 'sum', field: '' }] })}
        >
          <Plus size={16} aria-hidden="true" /> Add aggregate
        </button>
      </fieldset>

      <fieldset className="report-rows">
        <legend>Filter (all must hold)</legend>
        {draft.filter.map((c, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows are positions in the list being edited
          <div className="report-row" key={i}>
            <input
              className="input"
              aria-label={`Field of condition ${i + 1}`}
              placeholder="field"
              value={c.field}
              onChange={(e) => setCondition(i, { ...c, field: e.target.value.trim() })}
            />
            <select
              className="input"
              aria-label={`Operator of condition ${i + 1}`}
              value={c.op}
              onChange={(e) => setCondition(i, { ...c, op: e.target.value as Condition['op'] })}
            >
              {CONDITION_OPS.map((op) => (
                <option key={op} value={op}>
                  {OP_LABELS[op]}
                </option>
              ))}
            </select>
            {c.op !== 'exists' && c.op !== 'missing' && (
              <input
                className="input"
                aria-label={`Value of condition ${i + 1}`}
                placeholder="value"
                value={c.value === undefined ? '' : String(c.value)}
                onChange={(e) => setCondition(i, { ...c, value: typedValue(e.target.value) })}
              />
            )}
            <RemoveButton
              label={`Remove condition ${i + 1}`}
              onClick={() => set({ filter: draft.filter.filter((_, j) => j !== i) })}
            />
          </div>
        ))}
        <button
          type="button"
          className="button button-quiet"
          onClick={() => set({ filter: [...draft.filter, { field: '', op: 'eq', value: '' }] })}
        >
          <Plus size={16} aria-hidden="true" /> Add condition
        </button>
      </fieldset>

      <div className="form-grid">
        <div className="field">
          <label htmlFor="report-sort">Sort by</label>
          <select
            id="report-sort"
            className="input"
            value={draft.sort?.key ?? ''}
            onChange={(e) => {
              const { sort: _, ...rest } = draft
              onChange(
                e.target.value
                  ? { ...rest, sort: { key: e.target.value, dir: draft.sort?.dir ?? 'desc' } }
                  : rest,
              )
            }}
          >
            <option value="">Group values</option>
            {sortKeys.map((k) => (
              <option key={k} value={k}>
                {k}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="report-dir">Direction</label>
          <select
            id="report-dir"
            className="input"
            disabled={!draft.sort}
            value={draft.sort?.dir ?? 'asc'}
            onChange={(e) =>
              draft.sort && set({ sort: { key: draft.sort.key, dir: e.target.value as 'asc' | 'desc' } })
            }
          >
            <option value="asc">ascending</option>
            <option value="desc">descending</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="report-limit">Rows (empty: all)</label>
          <input
            id="report-limit"
            className="input"
            inputMode="numeric"
            value={draft.limit ?? ''}
            onChange={(e) => {
              const { limit: _, ...rest } = draft
              const n = Number(e.target.value)
              onChange(e.target.value.trim() && Number.isInteger(n) && n > 0 ? { ...rest, limit: n } : rest)
            }}
          />
        </div>
      </div>
    </div>
  )
}

function RemoveButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <button type="button" className="icon-button" aria-label={label} title={label} onClick={onClick}>
      <X size={16} aria-hidden="true" />
    </button>
  )
}
