/**
 * The listing of one folder, as a table (list view) or cards (grid view, EntryGrid.tsx), virtualized
 * (virtual-rows.ts): only the rows in view are in the DOM, so 10,000 files open as fast as 50. Each row
 * is focusable (arrows move between rows, Enter opens, Space selects); its name is a link (a folder
 * navigates, a file opens its preview), a checkbox selects it, and its "Actions for …" menu holds what
 * the session may do with it. Rows drag onto folder rows (or tree folders) to move; ghost rows of the
 * offline queue show their progress with Cancel / Retry.
 */
import { useCallback, useRef } from 'react'
import { formatBytes } from '../../components/format'
import { EntryGrid } from './EntryGrid'
import {
  allChecked,
  dateText,
  type ListProps,
  NameCell,
  PendingState,
  RowCheck,
  RowMenu,
  rowDrag,
  SortHeader,
  sortState,
  useOpenEntry,
} from './entry-parts'
import { useVirtualRows } from './virtual-rows'

export type { ListProps, MenuItem } from './entry-parts'
export { EntryIcon } from './entry-parts'

/** A row of one line with its menu button; rows with a description or a progress bar are measured. */
const ROW_ESTIMATE = 45

export function EntryList(props: ListProps) {
  return props.view === 'grid' ? <EntryGrid {...props} /> : <EntryTable {...props} />
}

function EntryTable(props: ListProps) {
  const { root, rows, selected, kept } = props
  const scrollRef = useRef<HTMLDivElement>(null)
  const headRef = useRef<HTMLTableSectionElement>(null)
  const open = useOpenEntry(props)
  const v = useVirtualRows({
    count: rows.length,
    perRow: 1,
    scrollRef,
    headerRef: headRef,
    estimateRow: ROW_ESTIMATE,
    // Stable while the rows are: a new one makes the virtualizer recompute every row's offset.
    rowKey: useCallback((i: number) => rows[i]?.key ?? String(i), [rows]),
    resetKey: props.listingKey,
    onOpen: open,
    onToggle: (i) => {
      const e = rows[i]
      if (e && !e.pending) props.onToggle(e.key)
    },
  })
  const all = allChecked(props)

  return (
    <div ref={scrollRef} className="storage-scroll" style={{ scrollPaddingTop: v.offset }}>
      <table
        className="storage-table"
        aria-label="Files and folders"
        aria-rowcount={rows.length + 1}
        aria-colcount={5}
      >
        <thead ref={headRef}>
          <tr aria-rowindex={1}>
            <th className="col-check">
              <input
                type="checkbox"
                aria-label="Select all"
                checked={all.checked}
                onChange={props.onToggleAll}
                disabled={all.disabled}
              />
            </th>
            <th className="col-name" aria-sort={sortState(props.sort, 'name')}>
              <SortHeader label="Name" by="name" sort={props.sort} onSort={props.onSort} />
            </th>
            <th className="col-size" aria-sort={sortState(props.sort, 'size')}>
              <SortHeader label="Size" by="size" sort={props.sort} onSort={props.onSort} />
            </th>
            <th className="col-modified" aria-sort={sortState(props.sort, 'modified')}>
              <SortHeader label="Modified" by="modified" sort={props.sort} onSort={props.onSort} />
            </th>
            <th className="col-actions">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        {rows.length === 0 ? (
          <tbody>
            <tr>
              <td colSpan={5} className="storage-empty">
                {props.empty}
              </td>
            </tr>
          </tbody>
        ) : (
          <tbody className="storage-rows" style={{ height: v.total }}>
            {v.rows.map((item) => {
              const entry = rows[item.index]
              if (!entry) return null
              return (
                <tr
                  key={item.key}
                  ref={v.virtualizer.measureElement}
                  data-index={item.index}
                  aria-rowindex={item.index + 2}
                  className={`storage-row${selected.has(entry.key) ? ' is-selected' : ''}${entry.pending ? ' is-pending' : ''}`}
                  style={{ transform: `translateY(${item.start - v.offset}px)` }}
                  data-path={entry.path}
                  {...v.focusProps(item.index)}
                  {...rowDrag(props, entry)}
                >
                  <td className="col-check">
                    <RowCheck props={props} entry={entry} />
                  </td>
                  <td className="col-name">
                    <NameCell root={root} entry={entry} kept={kept.has(entry.path)} />
                    {entry.pending && (
                      <PendingState
                        entry={entry}
                        onCancel={() => props.onCancel(entry.pending!.id)}
                        onRetry={() => props.onRetry(entry.pending!.id)}
                      />
                    )}
                  </td>
                  <td className="col-size">{entry.type === 'file' ? formatBytes(entry.size) : '—'}</td>
                  <td className="col-modified">{dateText(entry.modified)}</td>
                  <td className="col-actions">
                    {!entry.pending && <RowMenu entry={entry} items={props.menu(entry)} />}
                  </td>
                </tr>
              )
            })}
          </tbody>
        )}
      </table>
    </div>
  )
}
