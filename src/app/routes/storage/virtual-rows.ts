/**
 * Virtualized rows for the file browser's list and grid (@tanstack/react-virtual, as the Database
 * screen's VirtualTable): only the rows in view plus a few more exist in the DOM, so a folder of 10,000
 * files costs what a screenful costs. A virtual row holds `perRow` entries (1 in the list, N cards in
 * the grid); rows are measured as they render (descriptions and upload progress make them taller).
 *
 * Keyboard (roving tabindex): the focused entry is the one Tab stop among the rows; arrows move it
 * (Left/Right by one card in the grid, Up/Down by a row), Page Up/Down by a screenful, Home/End to the
 * ends, each scrolling it into view first; Enter opens it, Space selects it. The focused row is always
 * kept rendered, so scrolling it away with the wheel does not drop the keyboard focus into the page.
 */
import { defaultRangeExtractor, useVirtualizer } from '@tanstack/react-virtual'
import {
  type FocusEvent,
  type KeyboardEvent,
  type RefObject,
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
} from 'react'

export interface VirtualRowsOptions {
  /** Entries (not rows). */
  count: number
  perRow: number
  scrollRef: RefObject<HTMLElement | null>
  /** A sticky header inside the scroll element, above the rows (the list's column headers). */
  headerRef?: RefObject<HTMLElement | null>
  estimateRow: number
  /**
   * A row's key, from what it shows (its entries' keys): measured heights follow the rows, so when a
   * row is deleted or the order changes, the row now at that index is not drawn at the old one's height.
   */
  rowKey: (row: number) => string
  /** Changes when the listing is another one (folder, search, sort): the focus goes back to the top. */
  resetKey: string
  onOpen: (index: number) => void
  onToggle: (index: number) => void
}

/** Keys that move the focus, and keys that act on the focused row, only from these targets. */
const OWN_TARGET = 'a.storage-link, input[type="checkbox"]'

export function useVirtualRows(opts: VirtualRowsOptions) {
  const { count, perRow, scrollRef, headerRef, estimateRow } = opts
  const rowCount = Math.ceil(count / perRow)
  const [focused, setFocused] = useState(0)
  const [headerHeight, setHeaderHeight] = useState(0)
  const wantFocus = useRef<number | null>(null)
  const focusedRow = Math.floor(Math.min(focused, Math.max(0, count - 1)) / perRow)

  useLayoutEffect(() => {
    const el = headerRef?.current
    if (!el) return
    setHeaderHeight(el.offsetHeight)
    if (typeof ResizeObserver === 'undefined') return
    const ro = new ResizeObserver(() => setHeaderHeight(el.offsetHeight))
    ro.observe(el)
    return () => ro.disconnect()
  }, [headerRef])

  // biome-ignore lint/correctness/useExhaustiveDependencies: resetKey names the listing.
  useEffect(() => {
    setFocused(0)
    scrollRef.current?.scrollTo({ top: 0 })
  }, [opts.resetKey])

  const virtualizer = useVirtualizer({
    count: rowCount,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => estimateRow,
    getItemKey: opts.rowKey,
    overscan: 6,
    // The header sits above the rows inside the scroll element and stays over them (sticky):
    // rows start below it, and a row scrolled "into view" at the top lands just under it.
    scrollMargin: headerHeight,
    scrollPaddingStart: headerHeight,
    rangeExtractor: useCallback(
      (range: Parameters<typeof defaultRangeExtractor>[0]) => {
        const rows = defaultRangeExtractor(range)
        if (focusedRow < range.count && !rows.includes(focusedRow)) {
          rows.push(focusedRow)
          rows.sort((a, b) => a - b)
        }
        return rows
      },
      [focusedRow],
    ),
  })

  // A moved focus lands once its row is rendered (the virtualizer may need a render to draw it).
  useLayoutEffect(() => {
    const i = wantFocus.current
    if (i === null) return
    const el = scrollRef.current?.querySelector<HTMLElement>(`[data-entry-index="${i}"]`)
    if (el) {
      wantFocus.current = null
      el.focus()
    }
  })

  const moveTo = (index: number) => {
    if (!count) return
    const i = Math.max(0, Math.min(count - 1, index))
    wantFocus.current = i
    setFocused(i)
    virtualizer.scrollToIndex(Math.floor(i / perRow), { align: 'auto' })
  }

  const onKeyDown = (e: KeyboardEvent<HTMLElement>, index: number) => {
    const target = e.target as HTMLElement
    const onRow = target === e.currentTarget
    if (!onRow && !target.matches(OWN_TARGET)) return
    if (e.altKey || e.ctrlKey || e.metaKey) return
    const visibleRows = Math.max(
      1,
      Math.floor(((scrollRef.current?.clientHeight ?? 400) - headerHeight) / estimateRow) - 1,
    )
    const moves: Record<string, number> = {
      ArrowDown: index + perRow,
      ArrowUp: index - perRow,
      PageDown: index + visibleRows * perRow,
      PageUp: index - visibleRows * perRow,
      ...(perRow > 1 ? { ArrowRight: index + 1, ArrowLeft: index - 1 } : {}),
      Home: 0,
      End: count - 1,
    }
    const to = moves[e.key]
    if (to !== undefined) {
      e.preventDefault()
      // Down from the last row of the grid goes to the last card rather than nowhere.
      moveTo(
        e.key === 'ArrowDown' && to >= count && Math.floor(index / perRow) < rowCount - 1 ? count - 1 : to,
      )
      return
    }
    if (!onRow) return
    if (e.key === 'Enter') {
      e.preventDefault()
      opts.onOpen(index)
    } else if (e.key === ' ') {
      e.preventDefault()
      opts.onToggle(index)
    }
  }

  /** Props of the focusable element of entry `index` (a list row, a grid card). */
  const focusProps = (index: number) => ({
    'data-entry-index': index,
    tabIndex: index === Math.min(focused, count - 1) ? 0 : -1,
    onFocus: (e: FocusEvent<HTMLElement>) => {
      if (e.currentTarget.contains(e.target)) setFocused(index)
    },
    onKeyDown: (e: KeyboardEvent<HTMLElement>) => onKeyDown(e, index),
  })

  return {
    virtualizer,
    rows: virtualizer.getVirtualItems(),
    /** Where the rows' box starts within the scroll element (below the sticky header). */
    offset: headerHeight,
    total: virtualizer.getTotalSize(),
    focusProps,
  }
}
