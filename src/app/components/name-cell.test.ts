/**
 * The shared Name cell of the record lists: the name links to the record with the id under it and the
 * "Not synced yet" marker beside the id; `leading` (a user's picture) stands before both lines in a
 * `.user-cell`, and without it the cell is the two lines alone, as the other lists have it.
 */
import { type ComponentType, createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { Router } from 'wouter'
import { SCREENS_TEXT } from '../../shared/texts'
import { NameCell } from './NameCell'

// Rendered on a fixed path: wouter's Link reads the location, which Node has not.
const AtRoot = Router as ComponentType<{ ssrPath: string }>
const render = (props: Parameters<typeof NameCell>[0]) =>
  renderToStaticMarkup(createElement(AtRoot, { ssrPath: '/' }, createElement(NameCell, props)))

describe('NameCell', () => {
  it('links the name, shows the id under it, and no wrapper without a leading element', () => {
    const html = render({ href: '/groups/ops', name: 'Operations', id: 'ops', pending: false })
    expect(html).toBe(
      '<span class="user-cell-text"><a title="Operations" href="/groups/ops">Operations</a>' +
        '<span class="muted name-cell-id"><span>ops</span></span></span>',
    )
  })

  it('stands the id in for an empty name and marks a row not synced yet beside the id', () => {
    const html = render({ href: '/users/olga', name: '', id: 'olga', pending: true })
    expect(html).toContain('<a title="olga" href="/users/olga">olga</a>')
    expect(html).toMatch(
      new RegExp(
        `<span class="muted name-cell-id"><span>olga</span><span class="sync-marker" title="${SCREENS_TEXT.notSyncedHint}">`,
      ),
    )
    expect(html).toContain(`${SCREENS_TEXT.notSynced}</span></span></span>`)
  })

  it('puts a leading element before both lines in a user-cell', () => {
    const leading = createElement('span', { className: 'avatar' })
    const html = render({ href: '/users/olga', name: 'Olga', id: 'olga', pending: false, leading })
    expect(html).toBe(
      '<span class="user-cell"><span class="avatar"></span><span class="user-cell-text">' +
        '<a title="Olga" href="/users/olga">Olga</a><span class="muted name-cell-id"><span>olga</span></span></span></span>',
    )
  })
})
