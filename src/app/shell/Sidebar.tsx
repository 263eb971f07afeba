/**
 * The sidebar (SPEC §2): product home link, then the menu in spec order, filtered by permissions.
 * Collapsed (50 px) it shows icons only; the labels stay in the accessibility tree and as tooltips.
 * On a narrow screen it is an overlay drawer, always shown expanded.
 */
import { ChevronDown } from 'lucide-react'
import { useEffect, useMemo, useState } from 'react'
import { Link, useLocation } from 'wouter'
import { useSession, useSite } from '../session/use-session'
import { isActive, type MenuItem, useMenu, visibleMenu } from './menu'
import { useSlots } from './slots'

interface SidebarProps {
  collapsed: boolean
  onExpand: () => void
  /** An entry that opens something without navigating (the assistant): the phone drawer closes. */
  onAction: () => void
}

export function Sidebar({ collapsed, onExpand, onAction }: SidebarProps) {
  const { permissions } = useSession()
  const site = useSite()
  const [path] = useLocation()
  const menu = useMenu()
  const items = useMemo(() => visibleMenu(permissions, menu).filter((i) => !i.hidden), [permissions, menu])

  return (
    <aside id="sidebar" className="sidebar" aria-label="Sidebar" data-collapsed={collapsed || undefined}>
      <Link href="/" className="sidebar-brand" title={site.title}>
        {site.logo ? (
          <img src={site.logo} alt="" className="brand-logo" />
        ) : (
          <span className="brand-mark" aria-hidden="true">
            {site.title.charAt(0).toUpperCase()}
          </span>
        )}
        <span className="sidebar-label brand-title">{site.title}</span>
      </Link>
      <nav aria-label="Main" className="sidebar-nav">
        <ul>
          {items.map((item) => (
            <Entry
              key={item.key}
              item={item}
              path={path}
              collapsed={collapsed}
              onExpand={onExpand}
              onAction={onAction}
            />
          ))}
        </ul>
      </nav>
    </aside>
  )
}

interface EntryProps {
  item: MenuItem
  path: string
  collapsed: boolean
  onExpand: () => void
  onAction: () => void
}

function Entry({ item, path, collapsed, onExpand, onAction }: EntryProps) {
  const { openAssistant } = useSlots()
  const Icon = item.icon
  const children = item.children?.filter((c) => !c.hidden) ?? []
  const containsActive = children.some((c) => c.href && isActive(c.href, path))
  const [open, setOpen] = useState(containsActive)
  useEffect(() => {
    if (containsActive) setOpen(true)
  }, [containsActive])

  const body = (
    <>
      <Icon className="nav-icon" aria-hidden="true" size={20} strokeWidth={1.75} />
      <span className="sidebar-label">{item.title}</span>
    </>
  )

  if (item.action === 'assistant') {
    return (
      <li>
        <button
          type="button"
          className="nav-item"
          title={item.title}
          onClick={() => {
            onAction()
            openAssistant()
          }}
        >
          {body}
        </button>
      </li>
    )
  }

  if (item.href) {
    const active = isActive(item.href, path)
    return (
      <li>
        <Link
          href={item.href}
          className={`nav-item${active ? ' is-active' : ''}`}
          aria-current={active ? 'page' : undefined}
          title={item.title}
        >
          {body}
        </Link>
      </li>
    )
  }

  const listId = `nav-group-${item.key}`
  return (
    <li className="nav-group">
      <button
        type="button"
        className={`nav-item${containsActive ? ' has-active' : ''}`}
        aria-expanded={open && !collapsed}
        aria-controls={listId}
        title={item.title}
        onClick={() => {
          // Collapsed, the group has no room for its children: expand the sidebar and open it.
          if (collapsed) {
            onExpand()
            setOpen(true)
          } else setOpen(!open)
        }}
      >
        {body}
        <ChevronDown
          className="nav-chevron sidebar-label"
          aria-hidden="true"
          size={16}
          data-open={open || undefined}
        />
      </button>
      <ul id={listId} className="nav-children" hidden={!open || collapsed}>
        {children.map((child) => (
          <Entry
            key={child.key}
            item={child}
            path={path}
            collapsed={collapsed}
            onExpand={onExpand}
            onAction={onAction}
          />
        ))}
      </ul>
    </li>
  )
}
