/**
 * Guards leaving a page with unsaved changes (SPEC §4, §8). Every edit state that is modified marks
 * itself dirty here; while anything is dirty:
 * - closing or reloading the tab triggers the browser's own beforeunload question (pages cannot word it);
 * - in-app navigation asks "Unsaved Changes" and goes on only after Continue.
 * In-app navigation is caught through the Navigation API's cancelable `navigate` event, which sees
 * history.pushState from any router or link, so the router needs no cooperation. Browsers without it
 * fall back to catching clicks on same-origin links. Programmatic code can also `await confirmLeave()`.
 */
// No static import of ./notify: the service-worker registration (update-store) imports this module on
// every page, login included, and notify carries the screens' texts. The question is only asked once
// something is dirty, i.e. a console screen (which has notify loaded) is open.

const dirty = new Set<symbol>()
let allowNext = false
let installed = false

export function setDirty(key: symbol, on: boolean): void {
  if (on) {
    installLeaveGuard()
    dirty.add(key)
  } else dirty.delete(key)
}

export const isDirty = (): boolean => dirty.size > 0

/** Resolves true when there is nothing to lose or the user chose Continue. */
export async function confirmLeave(): Promise<boolean> {
  if (!isDirty()) return true
  const { confirmDiscard } = await import('./notify')
  const ok = await confirmDiscard()
  if (ok) dirty.clear()
  return ok
}

interface NavigateEventLike extends Event {
  navigationType: 'push' | 'replace' | 'reload' | 'traverse'
  cancelable: boolean
  hashChange: boolean
  downloadRequest: string | null
  destination: { url: string; key: string | null; sameDocument: boolean }
}
interface NavigationLike extends EventTarget {
  traverseTo(key: string): unknown
}

export function installLeaveGuard(): void {
  if (installed || typeof window === 'undefined') return
  installed = true
  window.addEventListener('beforeunload', (e) => {
    if (!isDirty()) return
    e.preventDefault()
    // Older Chromium needs returnValue set to show the prompt.
    e.returnValue = ''
  })
  const navigation = (window as unknown as { navigation?: NavigationLike }).navigation
  if (navigation)
    navigation.addEventListener('navigate', (e) => onNavigate(navigation, e as NavigateEventLike))
  else document.addEventListener('click', onLinkClick, true)
}

function onNavigate(navigation: NavigationLike, e: NavigateEventLike) {
  if (allowNext) {
    allowNext = false
    return
  }
  if (!isDirty() || !e.cancelable || e.hashChange || e.downloadRequest !== null) return
  // Reloads and full-page loads are beforeunload's job; asking twice would be worse.
  if (e.navigationType === 'reload' || !e.destination.sameDocument) return
  e.preventDefault()
  const { url, key } = e.destination
  const type = e.navigationType
  void confirmLeave().then((ok) => {
    if (!ok) return
    allowNext = true
    if (type === 'traverse' && key) navigation.traverseTo(key)
    else if (type === 'replace') history.replaceState(null, '', url)
    else history.pushState(null, '', url)
  })
}

function onLinkClick(e: MouseEvent) {
  if (allowNext) {
    allowNext = false
    return
  }
  if (!isDirty() || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey)
    return
  const anchor = (e.target as Element | null)?.closest?.('a[href]') as HTMLAnchorElement | null
  if (!anchor || anchor.target === '_blank' || anchor.hasAttribute('download')) return
  if (new URL(anchor.href, location.href).origin !== location.origin) return
  e.preventDefault()
  e.stopPropagation()
  void confirmLeave().then((ok) => {
    if (!ok) return
    allowNext = true
    anchor.click()
  })
}
