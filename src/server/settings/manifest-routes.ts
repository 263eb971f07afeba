/**
 * The web app manifest, generated from settings (SPEC §3: title, description, theme, logo, pwa
 * {name, short_name}) and served at /ui/manifest.webmanifest, outside /api and without login: the
 * browser fetches it with no credentials. A static file would show stale branding after an admin
 * changes a setting; this answers with the current values and `no-cache`.
 *
 * The default 192 and 512 px PNG icons in public/icons are always listed, so Chromium finds an icon it
 * can use whatever the logo is; a logo setting is listed first with sizes "any".
 */
import type { FastifyInstance } from 'fastify'
import { DARK_SURFACE } from '../../shared/constants'
import { isSafeImageSrc } from '../../shared/safe-urls'
import { type RouteTable, route } from '../http/route-table'
import type { Services } from '../services'

/** The web app manifest, outside /api: the browser fetches it without credentials. */
export const MANIFEST_ROUTES: RouteTable = [
  route('GET', '/ui/manifest.webmanifest', 'default', '- (the guard judges /api only)'),
]

export const MANIFEST_PATH = '/ui/manifest.webmanifest'
const UI_BASE = '/ui/'

export const DEFAULT_ICONS = [
  { src: '/ui/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
  { src: '/ui/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
  { src: '/ui/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
]

const IMAGE_TYPES: Record<string, string> = {
  png: 'image/png',
  svg: 'image/svg+xml',
  webp: 'image/webp',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  ico: 'image/x-icon',
}

export async function manifestRoute(app: FastifyInstance, services: Services): Promise<void> {
  app.get(MANIFEST_PATH, async (_req, reply) => {
    const manifest = await buildManifest(services)
    return reply
      .type('application/manifest+json; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(JSON.stringify(manifest))
  })
}

export async function buildManifest(services: Services): Promise<Record<string, unknown>> {
  const { items } = await services.store.list('settings', {
    filter: { _id: { $in: ['title', 'description', 'theme', 'logo', 'pwa'] } },
  })
  const value = (id: string) => items.find((d) => d._id === id)?.value
  const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined)
  const obj = (v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {}
  const pwa = obj(value('pwa'))
  const theme = obj(value('theme'))
  // The app name falls back to the title, and the seed leaves it empty, so changing Title renames the
  // installed app unless an administrator chose a separate App name (issue 11).
  const title = text(value('title')) ?? 'Momentum'
  const name = text(pwa.name) ?? title
  const dark = theme.darkMode === true
  // A logo stored before settings.ts checked it may be no image address at all (issue 10).
  const logo = isSafeImageSrc(value('logo')) ? text(value('logo')) : null
  return {
    id: UI_BASE,
    name,
    short_name: text(pwa.short_name) ?? name.slice(0, 12),
    description: text(value('description')),
    start_url: UI_BASE,
    scope: UI_BASE,
    display: 'standalone',
    // Dark mode paints the console's dark surface, so the window's bar matches it (as the page's
    // theme-color meta does, src/app/settings/site.ts).
    background_color: dark ? DARK_SURFACE : (colour(theme.background) ?? '#ffffff'),
    theme_color: dark ? DARK_SURFACE : (colour(theme.primary) ?? '#1f6feb'),
    icons: [...(logo ? [logoIcon(logo)] : []), ...DEFAULT_ICONS],
  }
}

function logoIcon(src: string) {
  const ext = /\.([a-z]+)(?:[?#]|$)/i.exec(src)?.[1]?.toLowerCase()
  const type = ext ? IMAGE_TYPES[ext] : undefined
  return { src, sizes: 'any', purpose: 'any', ...(type ? { type } : {}) }
}

/** Only colours a manifest accepts; a theme value like "var(--x)" would make Chromium ignore it anyway. */
function colour(v: unknown): string | undefined {
  return typeof v === 'string' && /^#[0-9a-f]{3,8}$|^[a-z]+$|^(rgb|hsl)a?\([^)]*\)$/i.test(v.trim())
    ? v.trim()
    : undefined
}
