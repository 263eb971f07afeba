/**
 * One behaviour for every dropdown menu built on `<details class="menu">` (Columns, Export, …),
 * installed once at start-up, so a screen gets it by using the markup (issue 11):
 *   - Escape closes the open menu and gives the focus back to its button;
 *   - a press outside an open menu closes it;
 *   - a menu that would open past the edge of the window is shifted back inside it (the Export menu
 *     opened off-screen at 375 px), and is never wider than the window (CSS max-width).
 * A document-level listener rather than a component: <details> already does open/close and keyboard
 * toggling natively; this adds only what it lacks, without each menu's owner wiring it.
 */
const OPEN_MENUS = 'details.menu[open]'
/** Space kept between a menu and the window's edge. */
const EDGE_PX = 8

/** How far to move a panel spanning [left, right] so it fits in a window `width` wide (0: it fits). */
export function menuShift(left: number, right: number, width: number, edge = EDGE_PX): number {
  if (right - left > width - 2 * edge) return edge - left
  if (left < edge) return edge - left
  if (right > width - edge) return width - edge - right
  return 0
}

function place(menu: HTMLDetailsElement): void {
  const panel = menu.querySelector<HTMLElement>('.menu-panel')
  if (!panel) return
  panel.style.translate = ''
  const box = panel.getBoundingClientRect()
  const shift = menuShift(box.left, box.right, document.documentElement.clientWidth)
  if (shift) panel.style.translate = `${shift}px 0`
}

let installed = false

export function installMenus(): void {
  if (installed || typeof document === 'undefined') return
  installed = true
  document.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape' || e.defaultPrevented) return
    const open = [...document.querySelectorAll<HTMLDetailsElement>(OPEN_MENUS)]
    if (!open.length) return
    e.preventDefault()
    for (const menu of open) {
      const hadFocus = menu.contains(document.activeElement)
      menu.open = false
      if (hadFocus) menu.querySelector('summary')?.focus()
    }
  })
  document.addEventListener(
    'pointerdown',
    (e) => {
      for (const menu of document.querySelectorAll<HTMLDetailsElement>(OPEN_MENUS)) {
        if (!menu.contains(e.target as Node)) menu.open = false
      }
    },
    true,
  )
  // `toggle` does not bubble: listen in the capture phase to see every menu open.
  document.addEventListener(
    'toggle',
    (e) => {
      const menu = e.target as HTMLDetailsElement
      if (menu instanceof HTMLDetailsElement && menu.matches(OPEN_MENUS)) place(menu)
    },
    true,
  )
}
