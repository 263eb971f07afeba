/**
 * Which stored addresses may reach the browser (issue 10): settings such as `logo` and `public_url`
 * are written by administrators but rendered in everyone's console, so a `javascript:` or foreign
 * scheme there would run in every session. The server refuses them on write and the console checks
 * again before rendering (data stored before the rule, or a value arriving through sync). Also the
 * origin parsing the hosted login and `GET /api/auth/known-host` share, so both compare alike.
 */

/** An absolute http(s) address. */
export function isHttpUrl(value: unknown): value is string {
  if (typeof value !== 'string' || !value.trim()) return false
  try {
    const url = new URL(value.trim())
    return url.protocol === 'https:' || url.protocol === 'http:'
  } catch {
    return false
  }
}

/**
 * A path on this server (`/files/logo.svg`): one leading slash, never `//host` or `/\host`, which
 * browsers read as another host.
 */
export function isSitePath(value: unknown): value is string {
  return typeof value === 'string' && /^\/(?![/\\])[^\s\\]*$/.test(value.trim())
}

/**
 * Image data the Settings form offers besides an address. In an <img> even SVG runs no script, so
 * any image type is safe there; other data: types (text/html) are refused.
 */
const DATA_IMAGE = /^data:image\/[a-z0-9.+-]+(;[a-z0-9=.+-]+)*,/i

/** A value the console may put in an <img src>: an http(s) address, a site path or a data:image. */
export function isSafeImageSrc(value: unknown): value is string {
  if (typeof value !== 'string') return false
  const v = value.trim()
  return isHttpUrl(v) || isSitePath(v) || DATA_IMAGE.test(v)
}

/**
 * `https://A.example:8443/x` → `https://a.example:8443`. A bare host (`partner.example`) means https,
 * the only scheme a production site should receive tokens on; anything else → null.
 */
export function originOf(value: unknown): string | null {
  if (typeof value !== 'string' || !value.trim()) return null
  const raw = value.trim()
  try {
    const url = new URL(raw.includes('://') ? raw : `https://${raw}`)
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return null
    return url.origin
  } catch {
    return null
  }
}
