/**
 * The toolbar (SPEC §2): menu button, breadcrumb trail, slot controls, the page's Save button and the
 * user menu. It darkens once the page has scrolled past TOOLBAR_DARKEN_SCROLL_PX (SPEC §9).
 */
import { LoaderCircle, LogIn, Menu, PanelLeftClose, PanelLeftOpen, Save } from 'lucide-react'
import { useEffect, useState } from 'react'
import { Link } from 'wouter'
import { TOOLBAR_DARKEN_SCROLL_PX } from '../../shared/constants'
import { useSession } from '../session/use-session'
import type { Crumb, SaveAction } from './page-chrome'
import { useSlots } from './slots'
import { UserMenu } from './UserMenu'

interface ToolbarProps {
  crumbs: readonly Crumb[]
  save: SaveAction | null
  narrow: boolean
  collapsed: boolean
  mobileOpen: boolean
  onMenu: () => void
}

export function Toolbar({ crumbs, save, narrow, collapsed, mobileOpen, onMenu }: ToolbarProps) {
  const { status } = useSession()
  const { toolbar } = useSlots()
  const scrolled = useScrolledPast(TOOLBAR_DARKEN_SCROLL_PX)
  const loggedIn = status === 'authenticated'

  const menuLabel = narrow
    ? mobileOpen
      ? 'Close menu'
      : 'Open menu'
    : collapsed
      ? 'Expand sidebar'
      : 'Collapse sidebar'
  const MenuIcon = narrow ? Menu : collapsed ? PanelLeftOpen : PanelLeftClose

  return (
    <header className={`toolbar${scrolled ? ' is-scrolled' : ''}`}>
      {loggedIn && (
        <button
          type="button"
          className="icon-button"
          aria-label={menuLabel}
          title={menuLabel}
          aria-controls="sidebar"
          aria-expanded={narrow ? mobileOpen : !collapsed}
          onClick={onMenu}
        >
          <MenuIcon size={20} aria-hidden="true" />
        </button>
      )}
      <Breadcrumbs crumbs={crumbs} />
      <div className="toolbar-end">
        {toolbar.map((Item, i) => (
          // Slots are a fixed list set at start-up, so the index is a stable key.
          // biome-ignore lint/suspicious/noArrayIndexKey: fixed list
          <Item key={i} />
        ))}
        {save && <SaveButton save={save} />}
        {loggedIn ? (
          <UserMenu />
        ) : (
          status === 'anonymous' && (
            <Link href="/login" className="button button-quiet">
              <LogIn size={18} aria-hidden="true" />
              <span>Log in</span>
            </Link>
          )
        )}
      </div>
    </header>
  )
}

function Breadcrumbs({ crumbs }: { crumbs: readonly Crumb[] }) {
  return (
    <nav aria-label="Breadcrumb" className="breadcrumbs">
      <ol>
        {crumbs.map((c, i) => {
          const last = i === crumbs.length - 1
          const label = typeof c === 'string' ? c : c.label
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: a trail may repeat a label; position is its identity
            <li key={i} className={last ? 'is-current' : undefined}>
              {typeof c === 'string' || last ? (
                <span aria-current={last ? 'page' : undefined}>{label}</span>
              ) : (
                <Link href={c.href}>{label}</Link>
              )}
            </li>
          )
        })}
      </ol>
    </nav>
  )
}

function SaveButton({ save }: { save: SaveAction }) {
  const [busy, setBusy] = useState(false)
  const run = async () => {
    setBusy(true)
    try {
      await save.run()
    } finally {
      setBusy(false)
    }
  }
  const label = save.label ?? 'Save'
  return (
    <button
      type="button"
      className="button button-primary"
      onClick={run}
      disabled={save.disabled || busy}
      aria-busy={busy || undefined}
      // The visible label is hidden on narrow screens (drawer layout); the name must stay.
      aria-label={label}
      title={label}
    >
      {busy ? (
        <LoaderCircle className="spin" size={18} aria-hidden="true" />
      ) : (
        <Save size={18} aria-hidden="true" />
      )}
      <span className="save-label">{label}</span>
    </button>
  )
}

function useScrolledPast(px: number): boolean {
  const [past, setPast] = useState(false)
  useEffect(() => {
    const onScroll = () => setPast(window.scrollY > px)
    onScroll()
    window.addEventListener('scroll', onScroll, { passive: true })
    return () => window.removeEventListener('scroll', onScroll)
  }, [px])
  return past
}
