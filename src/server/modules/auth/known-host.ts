/**
 * GET /api/auth/known-host?host=… (SPEC §7): whether a host may receive a login token from the hosted
 * login page (opened with redirect=postmessage and host). Known are the server's own origin, the host
 * of the public_url setting and any host in the optional `known_hosts` setting (a list). Hosts are
 * compared as host[:port], case-insensitive, so `https://a.example` and `a.example` agree.
 */
import type { FastifyInstance } from 'fastify'
import type { Services } from '../../services'
import { setting } from './common'

/** `https://A.example:8443/x` → `a.example:8443`; a bare host parses the same; junk → null. */
export function hostOf(value: unknown): string | null {
  if (typeof value !== 'string' || !value.trim()) return null
  const raw = value.trim()
  try {
    const url = new URL(raw.includes('://') ? raw : `http://${raw}`)
    return url.host.toLowerCase() || null
  } catch {
    return null
  }
}

export function knownHostRoutes(api: FastifyInstance, services: Services): void {
  api.get('/auth/known-host', { config: { access: 'public' } }, async (req) => {
    const host = hostOf((req.query as Record<string, unknown>).host)
    if (!host) return { known: false }
    const known = new Set<string>()
    const own = hostOf(req.host)
    if (own) known.add(own)
    const publicHost = hostOf(await setting(services, 'public_url'))
    if (publicHost) known.add(publicHost)
    const list = await setting(services, 'known_hosts')
    for (const entry of Array.isArray(list) ? list : []) {
      const h = hostOf(entry)
      if (h) known.add(h)
    }
    return { known: known.has(host) }
  })
}
