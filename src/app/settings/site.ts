/**
 * Site configuration and theme (SPEC §2 Footer, §3 Setting/Site configuration). Two sources:
 *   - logged out: the public settings (GET /api/settings, no login needed), so the login page is
 *     already branded;
 *   - logged in: the settings mirrored in the user's local database (SiteFromSync.tsx), so a change
 *     saved in Settings, or another admin's change arriving through sync, shows at once.
 * The last configuration is cached locally and applied before the first render, so an offline start
 * keeps its look. Theme values become CSS custom properties on <html>; every stylesheet reads colours
 * from them.
 */

import { DARK_SURFACE } from '../../shared/constants'
import { isSafeImageSrc } from '../../shared/safe-urls'
import { api } from '../api/client'
import { readLocal, writeLocal } from '../local-state'

export interface Theme {
  background?: string
  primary?: string
  accent?: string
  darkMode?: boolean
}

export interface SiteConfig {
  title: string
  description?: string
  logo?: string
  privacy_policy_url?: string
  terms_of_service_url?: string
  version?: string
  theme: Theme
}

interface SettingDoc {
  _id: string
  value: unknown
}

export const DEFAULT_SITE: SiteConfig = { title: 'Momentum', theme: {} }

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined)

/** Only http(s) addresses become links: a stored `javascript:` URL must never reach an href. */
export function safeLink(v: unknown): string | undefined {
  const s = str(v)
  if (!s) return undefined
  try {
    const url = new URL(s)
    return url.protocol === 'https:' || url.protocol === 'http:' ? s : undefined
  } catch {
    return undefined
  }
}

/** Builds the site configuration from the settings list; unknown or malformed values are ignored. */
export function siteFromSettings(settings: readonly SettingDoc[]): SiteConfig {
  const byId = new Map(settings.map((s) => [s._id, s.value]))
  const theme = byId.get('theme')
  const t = theme && typeof theme === 'object' ? (theme as Record<string, unknown>) : {}
  return {
    title: str(byId.get('title')) ?? DEFAULT_SITE.title,
    description: str(byId.get('description')),
    // Checked again here: a value stored before the server's rule, or arriving by sync, may be unsafe.
    logo: isSafeImageSrc(byId.get('logo')) ? str(byId.get('logo')) : undefined,
    privacy_policy_url: safeLink(byId.get('privacy_policy_url')),
    terms_of_service_url: safeLink(byId.get('terms_of_service_url')),
    version:
      str(byId.get('version')) ??
      (typeof byId.get('version') === 'number' ? String(byId.get('version')) : undefined),
    theme: {
      background: cssColour(t.background),
      primary: cssColour(t.primary),
      accent: cssColour(t.accent),
      darkMode: typeof t.darkMode === 'boolean' ? t.darkMode : undefined,
    },
  }
}

/** Only plain colour values reach CSS: a setting must not be able to inject other declarations. */
export function cssColour(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined
  const s = v.trim()
  return /^(#[0-9a-f]{3,8}|(rgb|rgba|hsl|hsla|oklch)\([0-9.,%\s/a-z-]+\)|[a-z]{3,20})$/i.test(s)
    ? s
    : undefined
}

/** Relative luminance (WCAG) of a #rgb/#rrggbb colour, or null for other syntaxes. */
export function luminance(hex: string): number | null {
  const m = hex.match(/^#([0-9a-f]{3}|[0-9a-f]{6})$/i)
  if (!m) return null
  const h = m[1]!.length === 3 ? [...m[1]!].map((c) => c + c).join('') : m[1]!
  const [r, g, b] = [0, 2, 4].map((i) => {
    const c = Number.parseInt(h.slice(i, i + 2), 16) / 255
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  })
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!
}

/** Text colour for a filled surface: white unless the fill is light enough for dark text to read better. */
export function contrastText(fill: string): string {
  const l = luminance(fill)
  if (l === null) return '#ffffff'
  return 1.05 / (l + 0.05) >= (l + 0.05) / 0.05 ? '#ffffff' : '#111418'
}

/**
 * Applies the theme: the settings' colours for light mode; dark mode keeps primary and accent and
 * uses the console's own dark surfaces (a light `background` setting would glare at night).
 */
export function applyTheme(theme: Theme, doc: Document = document): void {
  const root = doc.documentElement
  const dark = theme.darkMode ?? false
  root.dataset.theme = dark ? 'dark' : 'light'
  const set = (name: string, value: string | undefined) => {
    if (value) root.style.setProperty(name, value)
    else root.style.removeProperty(name)
  }
  set('--primary', theme.primary)
  set('--on-primary', theme.primary ? contrastText(theme.primary) : undefined)
  set('--accent', theme.accent)
  set('--bg', dark ? undefined : theme.background)
  // The browser's bar follows dark mode (the dark surface), else the primary colour.
  doc
    .querySelector('meta[name="theme-color"]')
    ?.setAttribute('content', dark ? DARK_SURFACE : (theme.primary ?? '#1f6feb'))
}

type Listener = () => void
const listeners = new Set<Listener>()
let site: SiteConfig = DEFAULT_SITE

export const siteStore = {
  get: (): SiteConfig => site,
  subscribe(l: Listener): () => void {
    listeners.add(l)
    return () => listeners.delete(l)
  },
}

function setSite(next: SiteConfig): void {
  site = next
  applyTheme(next.theme)
  for (const l of listeners) l()
}

/** Set once the logged-in mirror has spoken: a late anonymous answer must not undo it. */
let fromMirror = false

/** Applies the cached configuration now and refreshes it from the server in the background. */
export function loadSite(): Promise<void> {
  const cached = readLocal<SiteConfig>('settings')
  setSite(cached ?? DEFAULT_SITE)
  return api
    .get<SettingDoc[]>('/api/settings')
    .then((list) => {
      if (!Array.isArray(list) || fromMirror) return
      const next = siteFromSettings(list)
      writeLocal('settings', next)
      setSite(next)
    })
    .catch(() => {
      // Offline or not served yet: the cached or default look stays.
    })
}

/**
 * The configuration from the logged-in user's mirrored settings (rows of the local `settings` table,
 * pending local changes included). An empty mirror (the first pull has not arrived) changes nothing.
 */
export function applyMirroredSettings(rows: readonly { id: string; value: unknown }[]): void {
  if (rows.length === 0) return
  fromMirror = true
  const next = siteFromSettings(rows.map((r) => ({ _id: r.id, value: r.value })))
  if (JSON.stringify(next) === JSON.stringify(site)) return
  writeLocal('settings', next)
  setSite(next)
}
