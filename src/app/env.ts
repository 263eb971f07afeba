/**
 * Facts about where the console runs. The router base is '/ui' when the platform server serves the
 * built console and empty under Vite's dev server (SPEC §2 "The history base is empty in one
 * environment and '/ui' otherwise"), matching vite.config.ts.
 */
export const ROUTER_BASE = import.meta.env.DEV ? '' : '/ui'

/** SPEC §2: the shell is hidden when the console runs inside a frame (e.g. embedded in a host page). */
export function inFrame(): boolean {
  try {
    return window.self !== window.top
  } catch {
    // A cross-origin parent denies access to window.top: that is a frame too.
    return true
  }
}
