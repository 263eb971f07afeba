/**
 * Every console route as concrete paths, from the console's own route table (the sections' manifests),
 * for the specs that walk them all (raw-errors.spec.ts): a route added to the table is visited without
 * touching a spec. A `:id` takes the first id the API lists for its section (the sample seed has one
 * of each), a `/*` a sample below it, `/*?` its bare prefix; what has no id still opens, as "not found".
 */
import { NOT_FOUND, type RouteDef } from '../../src/app/routing/table'
import { consoleRoutes } from '../helpers/console-routes'
import type { E2EServer } from './fixtures'

/** Where a route's first segment is not the API collection that lists its ids. */
const COLLECTION_OF: Record<string, string> = { payments: 'transactions' }
/** `/*` routes whose sample is not an id in `/api/{segment}`. */
const BELOW: Record<string, string> = { data: 'contacts' }
const MISSING = 'e2e-missing'

async function firstId(server: E2EServer, token: string, segment: string): Promise<string | undefined> {
  const res = await server.api<unknown>(`/api/${COLLECTION_OF[segment] ?? segment}`, { token })
  const body = res.body as { docs?: unknown[]; items?: unknown[] } | unknown[] | null
  const list = Array.isArray(body) ? body : (body?.docs ?? body?.items ?? [])
  return list
    .map((d) => (d as { _id?: unknown })._id ?? (d as { id?: unknown }).id)
    .find((id): id is string => typeof id === 'string')
}

/** One concrete path for a route, ids looked up as `token` (an admin's) sees them. */
export async function pathOf(route: RouteDef, server: E2EServer, token: string): Promise<string> {
  if (route === NOT_FOUND) return '/e2e-no-such-page'
  const [segment = ''] = route.pattern.split('/').filter(Boolean)
  if (route.pattern.endsWith('/*?')) return route.pattern.slice(0, -3) || '/'
  if (route.pattern.endsWith('/*')) {
    const below = BELOW[segment] ?? (await firstId(server, token, segment)) ?? MISSING
    return `${route.pattern.slice(0, -2)}/${encodeURIComponent(below)}`
  }
  if (!route.pattern.includes(':')) return route.pattern
  const id = (await firstId(server, token, segment)) ?? MISSING
  return route.pattern.replace(/:[a-z]+/i, encodeURIComponent(id))
}

/** Every route of the table and the 404 page, each with the path it is visited at. */
export async function everyRoute(
  server: E2EServer,
  token: string,
): Promise<Array<{ route: RouteDef; path: string }>> {
  const all = [...(await consoleRoutes()), NOT_FOUND]
  return Promise.all(all.map(async (route) => ({ route, path: await pathOf(route, server, token) })))
}
