/**
 * The grid view: cards with thumbnails, virtualized by rows of N cards (N from the scroll box's width,
 * as the CSS grid of cards would lay them out: at least 168 px each, two on phones). Only the rows in
 * view exist, so thumbnails are fetched only for cards that are drawn and seen (Thumbnail.tsx).
 * Keyboard: arrows move between cards (Up/Down by a row), Enter opens, Space selects.
 */
import { type RefObject, useCallback, useLayoutEffect, useRef, useState } from 'react'
import { hasThumbnail } from '../../storage/entries'
import {
  allChecked,
  EntryIcon,
  type ListProps,
  NameCell,
  PendingState,
  RowCheck,
  RowMenu,
  rowDrag,
  useOpenEntry,
} from './entry-parts'
import { Thumbnail } from './Thumbnail'
import { useVirtualRows } from './virtual-rows'

/** Same as storage.css: cards of at least 168 px with 12 px gaps; two columns up to 575 px wide. */
const CARD_MIN = 168
const GAP = 12
const PHONE_GAP = 8
const PHONE = '(max-width: 575px)'

function layoutOf(width: number): { perRow: number; gap: number } {
  if (typeof matchMedia !== 'undefined' && matchMedia(PHONE).matches) return { perRow: 2, gap: PHONE_GAP }
  return { perRow: Math.max(1, Math.floor((width + GAP) / (CARD_MIN + GAP))), gap: GAP }
}

/** Cards per row, following the scroll box's width. */
function useCardsPerRow(ref: RefObject<HTMLElement | null>) {
  const [layout, setLayout] = useState(() => layoutOf(ref.current?.clientWidth ?? 800))
  useLayoutEffect(() => {
    const el = ref.current
    if (!el) return
    const update = () =>
      setLayout((old) => {
        const next = layoutOf(el.clientWidth)
        return next.perRow === old.perRow && next.gap === old.gap ? old : next
      })
    update()
    if (typeof ResizeObserver === 'undefined') return
    const ro = new ResizeObserver(update)
    ro.observe(el)
    return () => ro.disconnect()
  }, [ref])
  return layout
}

export function EntryGrid(props: ListProps) {
  const { root, rows, selected, kept } = props
  const scrollRef = useRef<HTMLDivElement>(null)
  const { perRow, gap } = useCardsPerRow(scrollRef)
  const width = scrollRef.current?.clientWidth ?? 800
  const cardWidth = (width - gap * (perRow - 1)) / perRow
  const open = useOpenEntry(props)
  const v = useVirtualRows({
    count: rows.length,
    perRow,
    scrollRef,
    // A 4:3 thumbnail, the top bar and two lines of name and date.
    estimateRow: Math.round(cardWidth * 0.75 + 110 + gap),
    resetKey: props.listingKey,
    rowKey: useCallback(
      (r: number) =>
        rows
          .slice(r * perRow, (r + 1) * perRow)
          .map((e) => e.key)
          .join('\n'),
      [rows, perRow],
    ),
    onOpen: open,
    onToggle: (i) => {
      const e = rows[i]
      if (e && !e.pending) props.onToggle(e.key)
    },
  })
  const all = allChecked(props)

  return (
    <div className="storage-grid-wrap">
      <label className="check-row storage-select-all">
        <input type="checkbox" checked={all.checked} onChange={props.onToggleAll} disabled={all.disabled} />
        Select all
      </label>
      <div ref={scrollRef} className="storage-scroll storage-scroll-grid">
        {rows.length === 0 ? (
          <div className="storage-empty">{props.empty}</div>
        ) : (
          <table
            // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: an ARIA grid of cards (arrows move between them); rows and cells stay table elements.
            role="grid"
            className="storage-grid"
            aria-label="Files and folders"
            aria-rowcount={Math.ceil(rows.length / perRow)}
            aria-colcount={perRow}
          >
            <tbody style={{ height: v.total }}>
              {v.rows.map((item) => {
                const first = item.index * perRow
                const cards = rows.slice(first, first + perRow)
                return (
                  <tr
                    key={item.key}
                    ref={v.virtualizer.measureElement}
                    data-index={item.index}
                    aria-rowindex={item.index + 1}
                    className="storage-grid-row"
                    style={{
                      transform: `translateY(${item.start}px)`,
                      gridTemplateColumns: `repeat(${perRow}, minmax(0, 1fr))`,
                      gap,
                      paddingBottom: gap,
                    }}
                  >
                    {cards.map((entry, k) => (
                      <td
                        key={entry.key}
                        aria-colindex={k + 1}
                        className={`storage-card${selected.has(entry.key) ? ' is-selected' : ''}${entry.pending ? ' is-pending' : ''}`}
                        data-path={entry.path}
                        {...v.focusProps(first + k)}
                        {...rowDrag(props, entry)}
                      >
                        <div className="storage-card-top">
                          <RowCheck props={props} entry={entry} />
                          {!entry.pending && <RowMenu entry={entry} items={props.menu(entry)} />}
                        </div>
                        {hasThumbnail(entry) ? (
                          <Thumbnail
                            root={root}
                            entry={entry}
                            kept={kept.has(entry.path)}
                            fallback={<EntryIcon entry={entry} size={40} />}
                          />
                        ) : (
                          <div className="storage-thumb">
                            <EntryIcon entry={entry} size={40} />
                          </div>
                        )}
                        <NameCell root={root} entry={entry} kept={kept.has(entry.path)} />
                        {entry.pending && (
                          <PendingState
                            entry={entry}
                            onCancel={() => props.onCancel(entry.pending!.id)}
                            onRetry={() => props.onRetry(entry.pending!.id)}
                          />
                        )}
                      </td>
                    ))}
                  </tr>
                )
              })}
            </tbody>
          </table>
        )}
      </div>
    </div>
  )
}
