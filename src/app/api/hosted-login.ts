/**
 * Hosted login for pages that are not the console (SPEC §2 "Hosted pages"): open the platform's
 * /ui/login in a popup with redirect=postmessage&host=<our origin>; the login page posts `{token}` back
 * to us, targeted at our origin only, and closes. Only messages from the platform's origin are believed. The ports (window, base) are parameters so a page on any origin can use it.
 */
import { UI_TEXT } from '../../shared/texts'
import { openCenteredPopup, watchPopupClosed } from './popup'

export interface HostedLoginOptions {
  /** The platform origin, e.g. https://platform.example.com. Defaults to this page's origin. */
  base?: string
  /** The window to open the popup from and listen on. */
  win?: Window
  /** Popup size; the login card fits in 420×640. */
  width?: number
  height?: number
}

export function hostedLoginUrl(base: string, host: string): string {
  const params = new URLSearchParams({ redirect: 'postmessage', host })
  return `${base.replace(/\/+$/, '')}/ui/login?${params}`
}

/** Resolves the session token, or rejects with 'Unable to open login' / 'Unknown response from login'. */
export function hostedLogin(opts: HostedLoginOptions = {}): Promise<string> {
  const win = opts.win ?? window
  const base = opts.base ?? win.location.origin
  const platformOrigin = new URL(base).origin
  const popup = openCenteredPopup(
    win,
    hostedLoginUrl(base, win.location.origin),
    'momentum-login',
    opts.width ?? 420,
    opts.height ?? 640,
  )
  if (!popup) return Promise.reject(new Error(UI_TEXT.unableToOpenLogin))

  return new Promise<string>((resolve, reject) => {
    const done = () => {
      win.removeEventListener('message', onMessage)
      win.clearInterval(watch)
    }
    const onMessage = (event: MessageEvent) => {
      // The origin is the trust boundary: only the platform's own pages can send from it.
      if (event.origin !== platformOrigin) return
      done()
      const token = (event.data as { token?: unknown } | null)?.token
      if (typeof token === 'string' && token) resolve(token)
      else reject(new Error(UI_TEXT.unknownLoginResponse))
    }
    const watch = watchPopupClosed(win, popup, () => {
      done()
      reject(new Error(UI_TEXT.unknownLoginResponse))
    })
    win.addEventListener('message', onMessage)
  })
}
