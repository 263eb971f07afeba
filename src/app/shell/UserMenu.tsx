/**
 * The avatar menu (SPEC §2): name and image, a notifications toggle (src/app/pwa: the browser's push
 * subscription), Account link to /users/{id}, Logout. A disclosure popover rather
 * than an ARIA menu: plain links and buttons, reachable with Tab, closed by Escape or a click outside.
 */
import { LogOut, UserRound } from 'lucide-react'
import { useEffect, useId, useRef, useState } from 'react'
import { Link, useLocation } from 'wouter'
import { confirmLogout } from '../data/logout' // sync
import { PushToggle } from '../pwa/PushToggle' // pwa
import { logout } from '../session/session'
import { useSession } from '../session/use-session'
import { Avatar, displayName } from './Avatar'

export function UserMenu() {
  const { user } = useSession()
  const [open, setOpen] = useState(false)
  const [, navigate] = useLocation()
  const panelId = useId()
  const root = useRef<HTMLDivElement>(null)
  const button = useRef<HTMLButtonElement>(null)

  useEffect(() => {
    if (!open) return
    const onDown = (e: PointerEvent) => {
      if (!root.current?.contains(e.target as Node)) setOpen(false)
    }
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        setOpen(false)
        button.current?.focus()
      }
    }
    document.addEventListener('pointerdown', onDown)
    document.addEventListener('keydown', onKey)
    return () => {
      document.removeEventListener('pointerdown', onDown)
      document.removeEventListener('keydown', onKey)
    }
  }, [open])

  if (!user) return null
  const name = displayName(user)

  return (
    <div className="user-menu" ref={root}>
      <button
        ref={button}
        type="button"
        className="avatar-button"
        aria-label={`Account menu for ${name}`}
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen(!open)}
      >
        <Avatar user={user} size={34} />
      </button>
      <div id={panelId} className="popover user-popover" hidden={!open}>
        <div className="user-card">
          <Avatar user={user} size={44} />
          <div>
            <div className="user-name">{name}</div>
            <div className="user-id">{user._id}</div>
          </div>
        </div>
        {/* pwa: the notifications toggle */}
        <PushToggle />
        <Link
          href={`/users/${encodeURIComponent(user._id)}`}
          className="popover-item"
          onClick={() => setOpen(false)}
        >
          <UserRound size={18} aria-hidden="true" />
          Account
        </Link>
        <button
          type="button"
          className="popover-item"
          onClick={async () => {
            setOpen(false)
            if (!(await confirmLogout())) return // sync: warn before unsent changes are deleted
            await logout()
            navigate('/login', { replace: true })
          }}
        >
          <LogOut size={18} aria-hidden="true" />
          Logout
        </button>
      </div>
    </div>
  )
}
