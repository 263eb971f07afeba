/**
 * The table's search box, its one-field condition and the column chooser. The search is applied as
 * you type (it runs on the local mirror); the column choice is remembered per collection.
 */
import { Columns3, Search, X } from 'lucide-react'
import { type DocFilter, FILTER_OPS, type FilterOp } from './doc-filter'

export interface FilterBarProps {
  filter: DocFilter
  onFilter: (next: DocFilter) => void
  fields: readonly string[]
  columns: readonly string[]
  onColumns: (next: string[]) => void
}

export function FilterBar({ filter, onFilter, fields, columns, onColumns }: FilterBarProps) {
  const set = (patch: Partial<DocFilter>) => onFilter({ ...filter, ...patch })
  const needsValue = filter.op !== 'exists' && filter.op !== 'missing'
  const active = filter.search || filter.field
  return (
    <div className="filter-bar">
      <div className="search-box">
        <Search size={16} aria-hidden="true" />
        <input
          type="search"
          className="input"
          aria-label="Search documents"
          placeholder="Search"
          value={filter.search}
          onChange={(e) => set({ search: e.target.value })}
        />
      </div>
      <fieldset className="condition">
        <legend className="visually-hidden">Filter</legend>
        <input
          className="input condition-field"
          aria-label="Filter field"
          placeholder="field"
          list="filter-fields"
          value={filter.field}
          onChange={(e) => set({ field: e.target.value })}
        />
        <datalist id="filter-fields">
          {fields.map((f) => (
            <option key={f} value={f} />
          ))}
        </datalist>
        <select
          className="input condition-op"
          aria-label="Filter operator"
          value={filter.op}
          onChange={(e) => set({ op: e.target.value as FilterOp })}
        >
          {FILTER_OPS.map((o) => (
            <option key={o.op} value={o.op}>
              {o.label}
            </option>
          ))}
        </select>
        {needsValue && (
          <input
            className="input condition-value"
            aria-label="Filter value"
            placeholder="value"
            value={filter.value}
            onChange={(e) => set({ value: e.target.value })}
          />
        )}
        {active && (
          <button
            type="button"
            className="icon-button"
            aria-label="Clear search and filter"
            title="Clear search and filter"
            onClick={() => onFilter({ search: '', field: '', op: 'contains', value: '' })}
          >
            <X size={16} aria-hidden="true" />
          </button>
        )}
      </fieldset>
      <details className="menu">
        <summary className="button button-quiet">
          <Columns3 size={16} aria-hidden="true" /> <span className="button-label">Columns</span>
        </summary>
        <fieldset className="menu-panel">
          <legend className="visually-hidden">Columns</legend>
          {fields.map((f) => (
            <label key={f} className="check-row">
              <input
                type="checkbox"
                checked={columns.includes(f)}
                disabled={f === '_id'}
                onChange={(e) =>
                  onColumns(
                    e.target.checked
                      ? fields.filter((x) => x === f || columns.includes(x))
                      : columns.filter((c) => c !== f),
                  )
                }
              />
              {f}
            </label>
          ))}
        </fieldset>
      </details>
    </div>
  )
}
