/**
 * A virtualized, keyboard-usable data grid (@tanstack/react-virtual): only the rows in view (plus a
 * small overscan) exist in the DOM, and rows are asked for by index through `rowAt`, so the caller can
 * page its data source and a table of 100,000 rows costs what a screenful costs. The header stays
 * sticky while the body scrolls both ways; narrow screens scroll sideways instead of squeezing cells.
 *
 * Keyboard: arrows, Page Up/Down, Home/End move the focused row; Enter opens it; Space toggles its
 * checkbox. Shift+click on a checkbox selects the range from the previous click.
 */
import { useVirtualizer } from '@tanstack/react-virtual'
import { ArrowDown, ArrowUp } from 'lucide-react'
import {
  type KeyboardEvent,
  type ReactNode,
  type RefObject,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react'
import { TABLE_CHECK_COLUMN_PX } from '../../shared/constants'

export interface Column<T> {
  key: string
  label: string
  width: number
  render: (row: T) => ReactNode
  sortable?: boolean
}

export interface VirtualTableProps<T> {
  label: string
  rowCount: number
  rowAt: (index: number) => T | undefined
  rowKey: (row: T) => string
  columns: readonly Column<T>[]
  sort?: { by: string; reverse: boolean }
  onSort?: (key: string) => void
  selected?: ReadonlySet<string>
  onToggle?: (key: string, index: number, range: boolean) => void
  onToggleAll?: () => void
  onOpen?: (row: T, index: number) => void
  onRange?: (first: number, last: number) => void
  rowClass?: (row: T) => string | undefined
  rowHeight?: number
  empty?: ReactNode
}

/**
 * The grid's size before it is measured, as ui.css caps it (.vt max-height, phone and wider, less its
 * 2 px border): the first commit then already holds the rows in view instead of none, and a screen that
 * opens on a table renders once rather than again after the measure (issue 20, docs/contributing/performance.md
 * "3. Offline cold start"). The real size replaces it in a layout effect, before the first paint.
 */
function firstRect(): { width: number; height: number } {
  const { innerWidth: width, innerHeight: height } = window
  const cap = width < 576 ? Math.max(300, height - 340) : Math.max(320, height - 300)
  return { width, height: cap - 2 }
}

/**
 * The virtualizer's callbacks, made here rather than in the render: closures made in a render share its
 * scope, and @tanstack/react-virtual keeps an early render's options, so an `estimateSize` made there
 * held that render's props (its `rowAt`, and through it the rows of the page's first window) for as
 * long as the table was open (issue 20, the screen suite's heap).
 */
function sizing(scrollRef: RefObject<HTMLDivElement | null>, rowHeight: number) {
  return { getScrollElement: () => scrollRef.current, estimateSize: () => rowHeight }
}

export function VirtualTable<T>(props: VirtualTableProps<T>) {
  const { rowCount, rowAt, rowKey, columns, sort, selected, onRange, rowHeight = 40 } = props
  const scrollRef = useRef<HTMLDivElement>(null)
  const [focused, setFocused] = useState(0)
  const selectable = !!selected
  const [initialRect] = useState(firstRect)
  const callbacks = useMemo(() => sizing(scrollRef, rowHeight), [rowHeight])
  const virtualizer = useVirtualizer({
    count: rowCount,
    ...callbacks,
    overscan: 10,
    initialRect,
  })
  const items = virtualizer.getVirtualItems()
  const first = items[0]?.index ?? 0
  const last = items.at(-1)?.index ?? 0
  useEffect(() => {
    onRange?.(first, last)
  }, [first, last, onRange])

  const template = [
    ...(selectable ? [`${TABLE_CHECK_COLUMN_PX}px`] : []),
    ...columns.map((c) => `${c.width}px`),
  ].join(' ')
  const width = (selectable ? TABLE_CHECK_COLUMN_PX : 0) + columns.reduce((n, c) => n + c.width, 0)
  const selectedCount = selected?.size ?? 0
  const allState = selectedCount === 0 ? false : selectedCount >= rowCount ? true : 'mixed'

  const moveTo = (index: number) => {
    const i = Math.max(0, Math.min(rowCount - 1, index))
    setFocused(i)
    virtualizer.scrollToIndex(i, { align: 'auto' })
    requestAnimationFrame(() => {
      scrollRef.current?.querySelector<HTMLElement>(`[data-index="${i}"]`)?.focus({ preventScroll: true })
    })
  }

  const onKeyDown = (e: KeyboardEvent<HTMLTableRowElement>) => {
    if (e.target !== e.currentTarget) return
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? 400) / rowHeight) - 1)
    const moves: Record<string, number> = {
      ArrowDown: focused + 1,
      ArrowUp: focused - 1,
      PageDown: focused + page,
      PageUp: focused - page,
      Home: 0,
      End: rowCount - 1,
    }
    if (e.key in moves) {
      e.preventDefault()
      moveTo(moves[e.key]!)
      return
    }
    const row = rowAt(focused)
    if (!row) return
    if (e.key === 'Enter') {
      e.preventDefault()
      props.onOpen?.(row, focused)
    } else if (e.key === ' ' && props.onToggle) {
      e.preventDefault()
      props.onToggle(rowKey(row), focused, e.shiftKey)
    }
  }

  return (
    <div ref={scrollRef} className="vt">
      <table
        className="vt-table"
        aria-label={props.label}
        aria-rowcount={rowCount + 1}
        aria-colcount={columns.length + (selectable ? 1 : 0)}
        style={{ minWidth: width }}
      >
        <thead className="vt-head">
          <tr aria-rowindex={1} style={{ gridTemplateColumns: template }}>
            {selectable && (
              <th className="vt-cell vt-check" scope="col">
                <input
                  type="checkbox"
                  aria-label="Select all"
                  checked={allState === true}
                  ref={(el) => {
                    if (el) el.indeterminate = allState === 'mixed'
                  }}
                  onChange={() => props.onToggleAll?.()}
                  disabled={rowCount === 0}
                />
              </th>
            )}
            {columns.map((c) => {
              const active = sort?.by === c.key
              const ariaSort = active ? (sort?.reverse ? 'descending' : 'ascending') : 'none'
              return (
                <th key={c.key} className="vt-cell" scope="col" aria-sort={c.sortable ? ariaSort : undefined}>
                  {c.sortable && props.onSort ? (
                    <button type="button" className="vt-sort" onClick={() => props.onSort?.(c.key)}>
                      <span>{c.label}</span>
                      {active &&
                        (sort?.reverse ? (
                          <ArrowDown size={14} aria-hidden="true" />
                        ) : (
                          <ArrowUp size={14} aria-hidden="true" />
                        ))}
                    </button>
                  ) : (
                    c.label
                  )}
                </th>
              )
            })}
          </tr>
        </thead>
        {rowCount === 0 ? (
          <tbody>
            <tr>
              <td className="vt-empty">{props.empty}</td>
            </tr>
          </tbody>
        ) : (
          <tbody className="vt-body" style={{ height: virtualizer.getTotalSize() }}>
            {items.map((item) => {
              const row = rowAt(item.index)
              const key = row ? rowKey(row) : null
              const isSelected = key !== null && !!selected?.has(key)
              return (
                <tr
                  key={item.key}
                  data-index={item.index}
                  aria-rowindex={item.index + 2}
                  tabIndex={item.index === focused ? 0 : -1}
                  className={`vt-row${isSelected ? ' is-selected' : ''}${row ? '' : ' is-loading'} ${(row && props.rowClass?.(row)) || ''}`}
                  style={{
                    gridTemplateColumns: template,
                    height: item.size,
                    transform: `translateY(${item.start}px)`,
                  }}
                  onFocus={() => setFocused(item.index)}
                  onKeyDown={onKeyDown}
                  onClick={(e) => {
                    if (!row || (e.target as HTMLElement).closest('input,button,a')) return
                    props.onOpen?.(row, item.index)
                  }}
                >
                  {selectable && (
                    <td className="vt-cell vt-check">
                      {row && key !== null && (
                        <input
                          type="checkbox"
                          aria-label={`Select ${key}`}
                          checked={isSelected}
                          onChange={() => {}}
                          onClick={(e) => props.onToggle?.(key, item.index, e.shiftKey)}
                          tabIndex={-1}
                        />
                      )}
                    </td>
                  )}
                  {columns.map((c) => (
                    <td key={c.key} className="vt-cell">
                      {row ? c.render(row) : <span className="vt-skeleton" aria-hidden="true" />}
                    </td>
                  ))}
                </tr>
              )
            })}
          </tbody>
        )}
      </table>
    </div>
  )
}
