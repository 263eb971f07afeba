/**
 * An <img> cannot send a bearer header, so user pictures on the console's own origin authenticate with
 * a cookie (SPEC §3 adds a token query only when the API is on another origin). The cookie is HttpOnly,
 * SameSite=Strict and scoped to /api/users, and the guard accepts it only for GET of a picture: a
 * request without side effects, so it opens no cross-site request forgery hole.
 */
import type { FastifyReply, FastifyRequest } from 'fastify'

export const IMAGE_COOKIE = 'momentum_image'
const IMAGE_PATH = /^\/api\/users\/[^/?]+\/image(?:\?|$)/

export function setImageCookie(reply: FastifyReply, token: string, maxAgeSeconds: number): void {
  reply.header(
    'set-cookie',
    `${IMAGE_COOKIE}=${encodeURIComponent(token)}; Path=/api/users; HttpOnly; SameSite=Strict; Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}`,
  )
}

export function clearImageCookie(reply: FastifyReply): void {
  reply.header('set-cookie', `${IMAGE_COOKIE}=; Path=/api/users; HttpOnly; SameSite=Strict; Max-Age=0`)
}

/** The cookie's token, for a GET of a user picture only. */
export function imageCookieToken(req: FastifyRequest): string | null {
  if (req.method !== 'GET' || !IMAGE_PATH.test(req.url)) return null
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [name, ...rest] = part.trim().split('=')
    if (name === IMAGE_COOKIE) {
      try {
        return decodeURIComponent(rest.join('=')) || null
      } catch {
        return null
      }
    }
  }
  return null
}
