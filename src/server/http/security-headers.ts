/**
 * Security headers for everything the server answers (issue 10 #10, #12). Three kinds of response:
 *
 * - The console (/ui and below): a Content-Security-Policy the built console runs under — scripts,
 *   workers (the sync worker, the service worker) and styles from this origin only; React sets inline
 *   styles through the CSSOM, which CSP does not govern, and no code injects <style> elements (the code
 *   editors' generated themes go to a constructed stylesheet: app/routes/templates/EditorRoot.tsx), so
 *   `style-src 'self'` holds with no nonce and no 'unsafe-inline'. Connections go to this origin only (`'self'` covers the same-origin
 *   websocket, ws: and wss:, in CSP 3). Images may also come from other http(s) hosts and data:/blob:,
 *   because the `logo` setting may be any address and avatars are previewed from blobs.
 *   `frame-ancestors 'self'` (and X-Frame-Options for older browsers) keeps another port or
 *   subdomain from framing it; only origins in MOMENTUM_TRUSTED_HOSTS are added (consoleCsp). The Vite dev server (`npm run dev`) is not this server and sends none.
 *   One exception: the hosted checkout page (CHECKOUT_PAGE) alone also admits the card provider's
 *   script, frames and API (Stripe.js; payments/csp.ts) while Stripe is configured.
 * - The API (/api): JSON and uploaded pictures, never a page to render: `default-src 'none'` and
 *   `sandbox`, so a picture uploaded as SVG and opened directly runs nothing.
 * - The Web Server root (every other path): files operators publish (and, later, upload) on the same
 *   host as the console. `sandbox` without allow-same-origin gives each such page an opaque origin: its
 *   scripts run, but cannot read the console's IndexedDB (the session token), localStorage or caches,
 *   cannot register a service worker, and its postMessage target origin is "null", so neither the
 *   hosted login nor the console trusts it. docs/operating/security.md explains the choice.
 *
 * Every response: nosniff (a text file is never guessed into a script or page) and no Referer (reset
 * links carry a token in their URL). No Cross-Origin-Opener-Policy: the hosted login popup must keep
 * its `window.opener` to answer the page that opened it.
 */
import type { FastifyInstance } from 'fastify'
import { CHECKOUT_PAGE } from '../../shared/payments'
import { originOf } from '../../shared/safe-urls'

const policy = (directives: Record<string, string>): string =>
  Object.entries(directives)
    .map(([name, value]) => `${name} ${value}`.trim())
    .join('; ')

const CONSOLE_DIRECTIVES: Record<string, string> = {
  'default-src': "'self'",
  'script-src': "'self'",
  'style-src': "'self'",
  'img-src': "'self' data: blob: https: http:",
  // File previews play audio and video from blob: URLs of bytes fetched with the session's token.
  'media-src': "'self' blob:",
  'font-src': "'self' data:",
  'connect-src': "'self'",
  'worker-src': "'self'",
  'manifest-src': "'self'",
  'frame-src': "'self'",
  'object-src': "'none'",
  'base-uri': "'self'",
  'form-action': "'self'",
}

/**
 * The console's policy. SPEC §2 lets a host page embed the console (the shell hides in a frame): only
 * this origin and the operator's MOMENTUM_TRUSTED_HOSTS may, the sites already trusted with a login
 * token. With none configured it is `frame-ancestors 'self'`.
 */
export function consoleCsp(
  trustedHosts: readonly string[] = [],
  extra: Readonly<Record<string, readonly string[]>> = {},
): string {
  const ancestors = ["'self'", ...new Set(trustedHosts.map(originOf).filter((o): o is string => !!o))]
  const directives = { ...CONSOLE_DIRECTIVES }
  for (const [name, sources] of Object.entries(extra)) {
    directives[name] = [directives[name] ?? '', ...sources].join(' ').trim()
  }
  return policy({ ...directives, 'frame-ancestors': ancestors.join(' ') })
}

export const API_CSP = policy({ 'default-src': "'none'", 'frame-ancestors': "'none'", sandbox: '' })

/** Scripts, forms, popups and downloads work in a published page; its own origin it never gets. */
export const WEB_ROOT_CSP = policy({
  sandbox:
    'allow-scripts allow-forms allow-popups allow-popups-to-escape-sandbox allow-modals allow-downloads',
})

/** The path part of a request URL: the part that decides which kind of response it is. */
function pathOf(url: string): string {
  const end = url.search(/[?#]/)
  return end === -1 ? url : url.slice(0, end)
}

export function isConsolePath(pathname: string): boolean {
  return pathname === '/ui' || pathname.startsWith('/ui/')
}

export function isApiPath(pathname: string): boolean {
  return pathname === '/api' || pathname.startsWith('/api/')
}

/**
 * `checkoutSources`: what the hosted checkout page (CHECKOUT_PAGE, and it alone) adds to the console's
 * policy for the card provider's script (payments/csp.ts); absent, it runs under the console's.
 */
export function registerSecurityHeaders(
  app: FastifyInstance,
  trustedHosts: readonly string[] = [],
  checkoutSources: Readonly<Record<string, readonly string[]>> = {},
): void {
  const consolePolicy = consoleCsp(trustedHosts)
  const checkoutPolicy = consoleCsp(trustedHosts, checkoutSources)
  // A callback hook, not an async one: it runs on every request, and a promise per hook showed in the
  // read's profile (issue 20).
  app.addHook('onRequest', (req, reply, done) => {
    const pathname = pathOf(req.url)
    reply.header('x-content-type-options', 'nosniff')
    reply.header('referrer-policy', 'no-referrer')
    // The CORS headers depend on the request's Origin (cors.ts), so every answer varies by it.
    reply.header('vary', 'Origin')
    if (pathname === CHECKOUT_PAGE || pathname === `${CHECKOUT_PAGE}/`) {
      reply.header('content-security-policy', checkoutPolicy)
      reply.header('x-frame-options', 'SAMEORIGIN')
    } else if (isConsolePath(pathname)) {
      reply.header('content-security-policy', consolePolicy)
      // For browsers without frame-ancestors; the ones with it ignore this when the CSP is present.
      reply.header('x-frame-options', 'SAMEORIGIN')
    } else if (isApiPath(pathname)) {
      reply.header('content-security-policy', API_CSP)
    } else {
      reply.header('content-security-policy', WEB_ROOT_CSP)
    }
    done()
  })
}
