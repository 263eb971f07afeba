/**
 * GET /api/auth/known-host?host=<origin> (SPEC §7): whether an origin may receive a login token from
 * the hosted login page (/ui/login?redirect=postmessage&host=…). The page asks before it shows the
 * form and never posts a token to an origin this answers `false` for (issue 10 #5: any site could open
 * the page and collect the token of whoever logged in).
 *
 * Known are: the server's own origin (the console logging in for itself), the origin of the
 * `public_url` setting and of MOMENTUM_PUBLIC_URL, the MOMENTUM_TRUSTED_HOSTS list and the optional `known_hosts` setting (a
 * list an administrator keeps without a restart). Whole origins are compared — scheme, host and port —
 * because postMessage delivers to an origin: `http://partner.example` is not `https://partner.example`,
 * and `localhost:5174` is not `localhost:5173`. A bare host in a list means https.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { originOf } from '../../shared/safe-urls'
import type { Services } from '../services'
import { setting } from './route-helpers'

/** Every origin that may receive a hosted-login token, as `scheme://host[:port]`. */
export async function knownOrigins(services: Services, req: FastifyRequest): Promise<Set<string>> {
  const known = new Set<string>()
  const add = (value: unknown) => {
    const origin = originOf(value)
    if (origin) known.add(origin)
  }
  add(`${req.protocol}://${req.host}`)
  add(await setting(services, 'public_url'))
  add(services.config.publicUrl)
  for (const entry of services.config.trustedHosts) add(entry)
  const list = await setting(services, 'known_hosts')
  for (const entry of Array.isArray(list) ? list : []) add(entry)
  return known
}

export function knownHostRoutes(api: FastifyInstance, services: Services): void {
  api.get('/auth/known-host', { config: { access: 'public' } }, async (req) => {
    const raw = (req.query as Record<string, unknown>).host
    // The page always sends a full origin; a bare host would be guessed as https and mislead.
    const origin = typeof raw === 'string' && raw.includes('://') ? originOf(raw) : null
    if (!origin) return { known: false }
    return { known: (await knownOrigins(services, req)).has(origin) }
  })
}
