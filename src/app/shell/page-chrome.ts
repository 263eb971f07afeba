/**
 * What a page tells the shell: its breadcrumb trail, its title and its save action (SPEC §2 Toolbar,
 * §4 "After navigation the breadcrumb and page title reset to the route title and the save action is
 * cleared"). Each value is stored with the path it was set for; the shell reads only values of the
 * current path, so navigating resets everything at once without racing the new page's own effects.
 * Breadcrumb updates are debounced (SPEC §9) so a page typing into a field does not redraw the trail.
 */
import { useEffect, useRef, useSyncExternalStore } from 'react'
import { useLocation } from 'wouter'
import { BREADCRUMB_DEBOUNCE_MS } from '../../shared/constants'
import { useShortcut } from '../hooks/use-shortcut'

/** A breadcrumb entry: plain text, or a link with its label. */
export type Crumb = string | { label: string; href: string }

export interface SaveAction {
  run: () => unknown
  disabled?: boolean
  label?: string
}

interface Chrome {
  path: string
  crumbs?: readonly Crumb[]
  title?: string
  save?: SaveAction | null
}

type Listener = () => void
const listeners = new Set<Listener>()
let chrome: Chrome = { path: '' }
let crumbTimer: ReturnType<typeof setTimeout> | undefined

function update(path: string, patch: Partial<Chrome>): void {
  chrome = chrome.path === path ? { ...chrome, ...patch } : { path, ...patch }
  for (const l of listeners) l()
}

const subscribe = (l: Listener) => {
  listeners.add(l)
  return () => listeners.delete(l)
}

export interface ResolvedChrome {
  crumbs: readonly Crumb[]
  title: string
  save: SaveAction | null
}

/** The shell's view: the page's values for this path, else the route title and no save action. */
export function usePageChrome(path: string, routeTitle: string): ResolvedChrome {
  const current = useSyncExternalStore(subscribe, () => chrome)
  const own = current.path === path ? current : null
  const title = own?.title ?? routeTitle
  return { crumbs: own?.crumbs ?? [title], title, save: own?.save ?? null }
}

/** Sets the breadcrumb trail of the current page, e.g. [{label: 'Users', href: '/users'}, 'alice']. */
export function useBreadcrumbs(crumbs: readonly Crumb[] | null): void {
  const [path] = useLocation()
  const key = JSON.stringify(crumbs)
  useEffect(() => {
    clearTimeout(crumbTimer)
    const value = JSON.parse(key) as Crumb[] | null
    crumbTimer = setTimeout(() => update(path, { crumbs: value ?? undefined }), BREADCRUMB_DEBOUNCE_MS)
    return () => clearTimeout(crumbTimer)
  }, [path, key])
}

/** Sets the page title (toolbar and document.title) while the page is shown. */
export function usePageTitle(title: string | null): void {
  const [path] = useLocation()
  useEffect(() => {
    update(path, { title: title ?? undefined })
  }, [path, title])
}

/**
 * Shows the toolbar's Save button while the page is mounted and binds Ctrl/Cmd+S (SPEC §9) to the same
 * action, so every screen gets both from one call; `action` may change every render (the latest one
 * runs). Pass null to hide the button. While the button is disabled Ctrl/Cmd+S does nothing (and never
 * opens the browser's own save dialog).
 */
export function useSaveAction(
  action: (() => unknown) | null,
  options: { disabled?: boolean; label?: string } = {},
): void {
  const [path] = useLocation()
  const latest = useRef(action)
  latest.current = action
  const has = action !== null
  const { disabled, label } = options
  const latestDisabled = useRef(disabled)
  latestDisabled.current = disabled
  useShortcut(
    'save',
    has
      ? () => {
          if (!latestDisabled.current) void latest.current?.()
        }
      : null,
  )
  useEffect(() => {
    if (!has) {
      update(path, { save: null })
      return
    }
    update(path, { save: { run: () => latest.current?.(), disabled, label } })
    return () => {
      if (chrome.path === path) update(path, { save: null })
    }
  }, [path, has, disabled, label])
}
