/**
 * The user's picture (SPEC §3: served at /api/users/{id}/image, with a token query when the API is on
 * another origin, since an <img> cannot send the bearer header; same-origin pictures use a cookie). Users without an uploaded image, or
 * whose image fails to load, get their initials on a colour derived from their id.
 */
import { useState } from 'react'
import { api } from '../api/client'
import type { CurrentUser } from '../session/session'

export function displayName(user: CurrentUser): string {
  return typeof user.name === 'string' && user.name.trim() ? user.name.trim() : user._id
}

export function userImageUrl(userId: string, rev?: unknown): string {
  const base = api.base()
  const url = `${base}/api/users/${encodeURIComponent(userId)}/image`
  const token = api.getToken()
  // auth screens: the image's revision in the address, so a new picture replaces a cached one at once.
  const query = new URLSearchParams()
  if (typeof rev === 'string' || typeof rev === 'number') query.set('rev', String(rev))
  // SPEC §3: the token query only when the API is on another origin; on the same origin the server's
  // HttpOnly picture cookie (set at login and session fetch) authenticates the <img>.
  if (token && base !== window.location.origin) query.set('token', token)
  const qs = query.toString()
  return qs ? `${url}?${qs}` : url
}

function initials(name: string): string {
  const parts = name.split(/[\s._@-]+/).filter(Boolean)
  return ((parts[0]?.[0] ?? '?') + (parts.length > 1 ? (parts.at(-1)?.[0] ?? '') : '')).toUpperCase()
}

function hue(id: string): number {
  let h = 0
  for (const ch of id) h = (h * 31 + ch.charCodeAt(0)) % 360
  return h
}

export function Avatar({ user, size }: { user: CurrentUser; size: number }) {
  const [failed, setFailed] = useState(false)
  const name = displayName(user)
  if (user.image && !failed) {
    return (
      <img
        className="avatar"
        src={userImageUrl(user._id, user.imageRev)}
        alt=""
        width={size}
        height={size}
        onError={() => setFailed(true)}
      />
    )
  }
  return (
    <span
      className="avatar avatar-initials"
      aria-hidden="true"
      style={{ width: size, height: size, fontSize: size * 0.4, background: `hsl(${hue(user._id)} 45% 38%)` }}
    >
      {initials(name)}
    </span>
  )
}
