/**
 * What a start on a collection (/data/{name}) shows while the console's chunks load: the shell's frame
 * and the collection's first rows as data/first-screen.ts read them from IndexedDB, instead of a
 * spinner. Drawn with the DOM by boot.ts, before React or the rest of the first chunk has evaluated, into
 * an element of its own beside React's root; Entry.tsx's Console shows nothing while it stands and
 * removes it in the same commit that shows the console, whose table starts from the same rows, so
 * what the user reads stays in place. Nothing in it acts (no links, no buttons: the page is busy). It
 * draws with the shell's styles and a few lines of shell.css (issue 20, docs/contributing/performance.md
 * "3. Offline cold start"; decisions/screens.md).
 */
import { NARROW_MEDIA_QUERY, TABLE_CHECK_COLUMN_PX } from '../shared/constants'
import { countOf } from '../shared/plural'
import { preview } from './components/cell-preview'
import type { FirstScreen } from './data/first-screen'
import { columnWidth, discoverFields, loadColumns, visibleColumns } from './routes/data/columns'
import { rememberedCollapsed, SIDEBAR_WIDTH_VARS, sidebarMode } from './shell/sidebar-mode'
import { rememberedTableOffset } from './table-offset'

export interface FrameColumns {
  /** Field names, `_id` first, as the Database table shows them by default or as last chosen. */
  keys: string[]
  /** Their widths in px, the selection column's first. */
  widths: number[]
}

/** The columns of the frame: those the Database table will show for these rows. */
export function frameColumns(first: FirstScreen, remembered = loadColumns(first.collection)): FrameColumns {
  const keys = visibleColumns(discoverFields(first.docs), remembered)
  // The Database table's widths, its selection column (for those who may write) first.
  return { keys, widths: [TABLE_CHECK_COLUMN_PX, ...keys.map(columnWidth)] }
}

/** A cell's text: the id as it is, any other value as the table previews it. */
export function cellText(doc: FirstScreen['docs'][number], key: string): string {
  return key === '_id' ? doc._id : preview((doc as Record<string, unknown>)[key])
}

let frame: HTMLElement | null = null
/** The console has taken over: a frame drawn after that would only cover it. */
let closed = false
const listeners = new Set<() => void>()
const changed = () => {
  for (const l of listeners) l()
}

/** Whether the frame is on screen (Console renders nothing of its own meanwhile). */
export function firstFrameShown(): boolean {
  return frame !== null
}

export function onFirstFrame(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

/** Takes the frame away for good: the console is there (or failed to load); no frame is drawn after. */
export function closeFirstFrame(): void {
  closed = true
  if (!frame) return
  frame.remove()
  frame = null
  changed()
}

/** Draws the frame before React's root (`#root`), once, unless the console has taken over already. */
export function drawFirstFrame(first: FirstScreen): void {
  const root = document.getElementById('root')
  if (frame || closed || !root) return
  const el = (tag: string, className?: string, text?: string): HTMLElement => {
    const node = document.createElement(tag)
    if (className) node.className = className
    if (text !== undefined) node.textContent = text
    return node
  }
  const name = first.collection.slice('data/'.length)
  const { keys, widths } = frameColumns(first)

  const shell = el('div', 'shell first-frame')
  for (const [name, value] of Object.entries(SIDEBAR_WIDTH_VARS)) shell.style.setProperty(name, value)
  shell.dataset.sidebar = sidebarMode({
    withSidebar: true,
    narrow: window.matchMedia(NARROW_MEDIA_QUERY).matches,
    drawerOpen: false,
    collapsed: rememberedCollapsed(),
  })
  const sidebar = el('div', 'sidebar')
  const main = el('div', 'shell-main')
  const toolbar = el('div', 'toolbar')
  sidebar.setAttribute('aria-hidden', 'true')
  toolbar.setAttribute('aria-hidden', 'true')
  const page = el('main', 'page')
  page.setAttribute('aria-busy', 'true')
  const section = el('section', 'screen screen-table')
  section.setAttribute('aria-label', name)
  const head = el('header', 'screen-head screen-head-row')
  const titles = el('div')
  titles.append(el('h1', undefined, name), el('p', 'muted', countOf(first.total, 'document')))
  head.append(titles)

  const table = el('table')
  table.setAttribute('aria-label', `Documents of ${name}`)
  table.style.width = `max(100%, ${widths.reduce((a, b) => a + b, 0)}px)`
  const cols = el('colgroup')
  for (const w of widths) {
    const col = el('col')
    col.style.width = `${w}px`
    cols.append(col)
  }
  cols.append(el('col')) // takes what is left of a wide window
  const headRow = el('tr')
  headRow.append(el('td'))
  for (const k of keys) {
    const th = el('th', undefined, k)
    th.setAttribute('scope', 'col')
    headRow.append(th)
  }
  headRow.append(el('td'))
  const thead = el('thead')
  thead.append(headRow)
  const tbody = el('tbody')
  for (const doc of first.docs) {
    const tr = el('tr')
    tr.append(el('td'), ...keys.map((k) => el('td', undefined, cellText(doc, k))), el('td'))
    tbody.append(tr)
  }
  table.append(cols, thead, tbody)
  const box = el('div', 'first-frame-table')
  box.append(table)
  section.append(head, box)
  page.append(section)
  main.append(toolbar, page)
  shell.append(sidebar, main)
  // The console adds its buttons and filter bar above the table: leave their room, as the screen
  // measured it at this width, so the table does not jump when the console takes over (table-offset.ts).
  const room = rememberedTableOffset(first.collection, window.innerWidth)
  if (room) box.style.marginTop = `${room}px`
  root.before(shell)
  frame = shell
  changed()
}
