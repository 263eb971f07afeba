/**
 * The list screen of a record section (Users, Groups, and the sections to come): heading with the
 * "N of M" count, bulk selection and delete (SPEC §8 confirmation, permission refusal), the "New …"
 * toggle with its form, a search box and the virtualized, sortable table. The section brings only its
 * columns, what the search looks at, the sort values and the create form. See docs/decisions/screens.md.
 */
import { Plus, Search } from 'lucide-react'
import { type ReactNode, useMemo, useState } from 'react'
import { useLocation } from 'wouter'
import type { SyncDoc } from '../../db/types'
import { countOfTotal } from '../../shared/plural'
import type { Rows } from '../data/collection-rows'
import { useShortcut } from '../hooks/use-shortcut'
import { useCan } from '../session/use-can'
import { BulkDeleteButton, useBulkDelete } from './bulk-delete'
import { type Column, VirtualTable } from './VirtualTable'

export interface RecordListProps<K extends string> {
  collection: string
  /** The section's rows (useRows), undefined while loading. */
  rows: Rows | undefined
  /** Heading and table label, e.g. "Users". */
  title: string
  /** [singular, plural] in lower case, e.g. ['user', 'users']. */
  noun: readonly [string, string]
  href: (id: string) => string
  columns: Column<SyncDoc>[]
  defaultSort: K
  /** The texts the search matches (lower-cased here). Keep it stable (useCallback) for large lists. */
  searchText: (doc: SyncDoc) => string[]
  /** Numbers sort numerically, anything else by localeCompare; ties by id. Keep it stable too. */
  sortValue: (doc: SyncDoc, by: K) => string | number
  searchPlaceholder: string
  /** The create form, shown by the "New …" button (for sessions with `<collection>:c`). */
  renderCreate: (close: () => void) => ReactNode
  /** Extra controls beside the search box, e.g. a kind filter (the section filters `rows` itself). */
  filters?: ReactNode
}

export function RecordList<K extends string>(props: RecordListProps<K>) {
  const { collection, rows, title, noun, href, searchText, sortValue } = props
  const allowed = useCan()
  const [, navigate] = useLocation()
  const [query, setQuery] = useState('')
  const [sort, setSort] = useState<{ by: K; reverse: boolean }>({ by: props.defaultSort, reverse: false })
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set())
  const [creating, setCreating] = useState(false)

  const visible = useMemo(() => {
    const q = query.trim().toLowerCase()
    const docs = (rows?.docs ?? []).filter(
      (d) => !q || searchText(d).some((v) => v.toLowerCase().includes(q)),
    )
    docs.sort((a, b) => {
      const [x, y] = [sortValue(a, sort.by), sortValue(b, sort.by)]
      const c = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y))
      return c || a._id.localeCompare(b._id)
    })
    if (sort.reverse) docs.reverse()
    return docs
  }, [rows, query, sort, searchText, sortValue])

  const toggleAll = () =>
    setSelected(
      selected.size >= visible.length && visible.length > 0 ? new Set() : new Set(visible.map((d) => d._id)),
    )
  const bulk = useBulkDelete(collection, selected, () => setSelected(new Set()), noun)
  useShortcut('selectAll', toggleAll)
  useShortcut('delete', selected.size ? () => void bulk.run() : null)

  return (
    <>
      <header className="screen-head screen-head-row">
        <div>
          <h1 id="page-heading">{title}</h1>
          <p className="muted" aria-live="polite">
            {rows === undefined ? 'Loading…' : countOfTotal(visible.length, rows.docs.length, noun[0])}
          </p>
        </div>
        <div className="actions">
          <BulkDeleteButton count={selected.size} bulk={bulk} />
          {allowed(`${collection}:c`) && (
            <NewButton label={`New ${noun[0]}`} open={creating} onToggle={() => setCreating((v) => !v)} />
          )}
        </div>
      </header>
      {creating && props.renderCreate(() => setCreating(false))}
      <div className="search-row">
        <Search size={16} aria-hidden="true" />
        <input
          className="input"
          type="search"
          aria-label={`Search ${noun[1]}`}
          placeholder={props.searchPlaceholder}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
        {props.filters}
      </div>
      <VirtualTable
        label={title}
        rowCount={visible.length}
        rowAt={(i) => visible[i]}
        rowKey={(d) => d._id}
        columns={props.columns}
        sort={sort}
        onSort={(key) =>
          setSort((s) =>
            s.by === key ? { by: s.by, reverse: !s.reverse } : { by: key as K, reverse: false },
          )
        }
        selected={selected}
        onToggle={(id) => {
          const next = new Set(selected)
          if (next.has(id)) next.delete(id)
          else next.add(id)
          setSelected(next)
        }}
        onToggleAll={toggleAll}
        onOpen={(d) => navigate(href(d._id))}
        rowClass={(d) => (rows?.pending.has(d._id) ? 'is-pending' : undefined)}
        rowHeight={48}
        empty={
          rows === undefined ? 'Loading…' : query ? `No ${noun[1]} match the search.` : `No ${noun[1]} yet.`
        }
      />
    </>
  )
}

/** The "New …" toggle of a list's header; aria-expanded tells whether its form is open. */
export function NewButton({ label, open, onToggle }: { label: string; open: boolean; onToggle: () => void }) {
  return (
    <button type="button" className="button button-primary" aria-expanded={open} onClick={onToggle}>
      <Plus size={16} aria-hidden="true" /> {label}
    </button>
  )
}
