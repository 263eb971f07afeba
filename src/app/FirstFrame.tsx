/**
 * What an offline start on a collection (/data/{name}) shows while the console's chunks load: the shell's
 * frame and the collection's first rows as data/first-screen.ts read them from IndexedDB, instead of a
 * spinner. Nothing in it acts (no links, no buttons: the page is busy); the console replaces it whole
 * the moment it has loaded, and its table starts from the same rows, so the swap keeps what the user
 * reads in place. It lives in the first chunk and draws with the shell's own styles plus a few lines of
 * shell.css, so it adds no request of its own (issue 20, docs/performance.md "3. Offline cold start").
 */
import type { CSSProperties } from 'react'
import { NARROW_BREAKPOINT_PX, SIDEBAR_COLLAPSED_PX, SIDEBAR_EXPANDED_PX } from '../shared/constants'
import { countOf } from '../shared/plural'
import { preview } from './components/cell-preview'
import type { FirstScreen } from './data/first-screen'
import { readLocal } from './local-state'
import { discoverFields, loadColumns, visibleColumns } from './routes/data/columns'

/** The Database table's widths (CollectionScreen), so the columns do not move when it takes over. */
const WIDTHS: Record<string, number> = { _id: 200, _created: 200, _updated: 200, _rev: 70 }
const WIDTH = 180
/** The selection column the table has for those who may write (VirtualTable's CHECK_WIDTH). */
const CHECK = 44

function sidebarState(): string {
  if (window.matchMedia(`(max-width: ${NARROW_BREAKPOINT_PX - 0.02}px)`).matches) return 'drawer'
  return readLocal<boolean>('sidebarCollapsed') === true ? 'collapsed' : 'expanded'
}

export function FirstFrame({ first }: { first: FirstScreen }) {
  const name = first.collection.slice('data/'.length)
  const columns = visibleColumns(discoverFields(first.docs), loadColumns(first.collection))
  // Fixed columns as wide as the table's, then one that takes what is left of a wide window.
  const width = columns.reduce((sum, c) => sum + (WIDTHS[c] ?? WIDTH), CHECK)
  const widths = {
    '--sidebar-expanded': `${SIDEBAR_EXPANDED_PX}px`,
    '--sidebar-collapsed': `${SIDEBAR_COLLAPSED_PX}px`,
  } as CSSProperties
  return (
    <div className="shell first-frame" style={widths} data-sidebar={sidebarState()}>
      <div className="sidebar" aria-hidden="true" />
      <div className="shell-main">
        <div className="toolbar" aria-hidden="true" />
        <main id="main" className="page" aria-busy="true">
          <section className="screen screen-table" aria-labelledby="page-heading">
            <header className="screen-head screen-head-row">
              <div>
                <h1 id="page-heading">{name}</h1>
                <p className="muted">{countOf(first.total, 'document')}</p>
              </div>
            </header>
            <div className="first-frame-table">
              <table aria-label={`Documents of ${name}`} style={{ width: `max(100%, ${width}px)` }}>
                <colgroup>
                  <col style={{ width: CHECK }} />
                  {columns.map((c) => (
                    <col key={c} style={{ width: WIDTHS[c] ?? WIDTH }} />
                  ))}
                  <col />
                </colgroup>
                <thead>
                  <tr>
                    <td />
                    {columns.map((c) => (
                      <th key={c} scope="col">
                        {c}
                      </th>
                    ))}
                    <td />
                  </tr>
                </thead>
                <tbody>
                  {first.docs.map((doc) => (
                    <tr key={doc._id}>
                      <td />
                      {columns.map((c) => (
                        <td key={c}>
                          {c === '_id' ? doc._id : preview((doc as Record<string, unknown>)[c])}
                        </td>
                      ))}
                      <td />
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </section>
        </main>
      </div>
    </div>
  )
}
