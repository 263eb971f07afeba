/**
 * The shell around every page that has one (SPEC §2): sidebar (logged-in users only), toolbar, the
 * page, and the footer unless the route turns it off. The sidebar's collapsed state is remembered
 * locally; on a narrow screen the sidebar is a drawer that the menu button opens and navigation (or
 * an entry such as the assistant) closes.
 */
import { type CSSProperties, type ReactNode, useEffect, useState } from 'react'
import { useLocation } from 'wouter'
import { writeLocal } from '../local-state'
import type { RouteDef } from '../routing/table'
import { useSession } from '../session/use-session'
import { Footer } from './Footer'
import type { ResolvedChrome } from './page-chrome'
import { Sidebar } from './Sidebar'
import { rememberedCollapsed, SIDEBAR_WIDTH_VARS, sidebarMode } from './sidebar-mode'
import { Toolbar } from './Toolbar'
import { useNarrow } from './use-narrow'

const SIDEBAR_WIDTHS = SIDEBAR_WIDTH_VARS as CSSProperties

interface ShellProps {
  route: RouteDef
  chrome: ResolvedChrome
  children: ReactNode
}

export function Shell({ route, chrome, children }: ShellProps) {
  const { status } = useSession()
  const [path] = useLocation()
  const narrow = useNarrow()
  const [collapsed, setCollapsed] = useState(rememberedCollapsed)
  const [mobileOpen, setMobileOpen] = useState(false)
  const withSidebar = status === 'authenticated'

  // SPEC §2: on a narrow screen the sidebar hides again after navigating.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on each path change by design
  useEffect(() => setMobileOpen(false), [path])

  useEffect(() => {
    if (!mobileOpen) return
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setMobileOpen(false)
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [mobileOpen])

  const setCollapsedRemembered = (next: boolean) => {
    setCollapsed(next)
    writeLocal('sidebarCollapsed', next)
  }
  const onMenu = () => (narrow ? setMobileOpen(!mobileOpen) : setCollapsedRemembered(!collapsed))
  const showCollapsed = collapsed && !narrow

  return (
    <div
      className="shell"
      style={SIDEBAR_WIDTHS}
      data-sidebar={sidebarMode({ withSidebar, narrow, drawerOpen: mobileOpen, collapsed })}
    >
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      {withSidebar && (
        <>
          <Sidebar
            collapsed={showCollapsed}
            onExpand={() => setCollapsedRemembered(false)}
            onAction={() => setMobileOpen(false)}
          />
          {narrow && mobileOpen && (
            <div className="scrim" aria-hidden="true" onClick={() => setMobileOpen(false)} />
          )}
        </>
      )}
      <div className="shell-main">
        <Toolbar
          crumbs={chrome.crumbs}
          save={chrome.save}
          narrow={narrow}
          collapsed={collapsed}
          mobileOpen={mobileOpen}
          onMenu={onMenu}
        />
        <main id="main" className="page" tabIndex={-1}>
          {children}
        </main>
        {route.footer && <Footer />}
      </div>
    </div>
  )
}
