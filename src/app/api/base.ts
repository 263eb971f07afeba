/**
 * Where the platform lives (SPEC §7), apart from the client (client.ts re-exports it): this module
 * imports nothing, so the boot chunk can name the user's database (src/app/boot.ts) without the
 * client and its messages.
 */
/** What a desktop wrapper may put on `window.__MOMENTUM_ENV__` before the console loads. */
export interface MomentumEnv {
  api?: string
}

declare global {
  interface Window {
    __MOMENTUM_ENV__?: MomentumEnv
  }
}

export interface PageLocation {
  protocol: string
  hostname: string
  port: string
  origin: string
}

/** Vite's dev server port; the platform then runs beside it on 8080 (SPEC §7). */
export const DEV_SERVER_PORT = '5173'
export const DEV_API_PORT = 8080

/**
 * SPEC §7: the page origin, or {host}:8080 under the dev server, or the desktop wrapper's value. The
 * wrapper wins when present: its page origin (file://, app://) is not where the platform lives.
 */
export function apiBase(location: PageLocation, env?: MomentumEnv): string {
  if (env?.api) return env.api.replace(/\/+$/, '')
  if (location.port === DEV_SERVER_PORT) return `${location.protocol}//${location.hostname}:${DEV_API_PORT}`
  return location.origin
}
