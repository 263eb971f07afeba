import { describe, expect, it } from 'vitest'
import { sidebarMode } from './sidebar-mode'

describe('sidebarMode', () => {
  const base = { withSidebar: true, narrow: false, drawerOpen: false, collapsed: false }
  it('is none without a sidebar, whatever else holds', () => {
    expect(sidebarMode({ ...base, withSidebar: false, narrow: true, drawerOpen: true })).toBe('none')
  })
  it('is a drawer on a narrow screen, open or not, and ignores the remembered collapse there', () => {
    expect(sidebarMode({ ...base, narrow: true, collapsed: true })).toBe('drawer')
    expect(sidebarMode({ ...base, narrow: true, drawerOpen: true })).toBe('drawer-open')
  })
  it('is collapsed or expanded on a wide screen, as remembered', () => {
    expect(sidebarMode({ ...base, collapsed: true })).toBe('collapsed')
    expect(sidebarMode(base)).toBe('expanded')
  })
})
