/**
 * Session tokens: HS256 JWTs (jose) signed with a secret kept in the data dir. Each token names a
 * session document in the internal `_sessions` collection; logout deletes it, so a stolen token stops
 * working at once instead of at its expiry.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { jwtVerify, SignJWT } from 'jose'
import { SESSION_DEFAULT_SECONDS, SESSION_MAX_SECONDS } from '../../shared/constants'
import type { DocumentStore } from '../store/types'
import { createCommitCache } from './commit-cache'

export const SESSIONS = '_sessions'
/** Verified tokens kept at once (checked below); past it the oldest goes and is verified again if used. */
const CHECKED_MAX = 10_000

export interface SessionInfo {
  user: string
  sessionId: string
  /** 'session' for login tokens, 'reset' for password-reset tokens. */
  purpose: string
  /** For a reset token: the fingerprint of the password hash it was issued against. */
  bind?: string
}

export interface TokenService {
  issue(user: string, options?: { expireSeconds?: number; ip?: string; userAgent?: string }): Promise<string>
  /**
   * A short-lived token that only PATCH /api/auth/reset accepts, bound to `bind` (the fingerprint of
   * the current password hash) so a later password change voids it.
   */
  issueReset(user: string, bind: string): Promise<string>
  verify(token: string): Promise<SessionInfo | null>
  /**
   * verify()'s answer for a login session when everything it needs is already checked and kept (the
   * signature, and the session on a store this process alone writes); undefined means "call verify()".
   */
  verifyKept(token: string): SessionInfo | null | undefined
  revoke(sessionId: string): Promise<void>
}

export function loadSecret(dataDir: string): Uint8Array {
  const file = path.join(dataDir, 'jwt.secret')
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dataDir, { recursive: true })
    fs.writeFileSync(file, crypto.randomBytes(48).toString('base64'), { mode: 0o600 })
  }
  return new TextEncoder().encode(fs.readFileSync(file, 'utf8').trim())
}

export interface TokenHooks {
  /** Called after a session is revoked, so open websockets of that session close at once. */
  onRevoke?(sessionId: string): void
}

export function createTokenService(
  store: DocumentStore,
  secret: Uint8Array,
  hooks: TokenHooks = {},
): TokenService {
  const sign = (user: string, sessionId: string, purpose: string, seconds: number, bind?: string) =>
    new SignJWT(bind === undefined ? { purpose } : { purpose, bind })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(user)
      .setJti(sessionId)
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + seconds)
      .sign(secret)

  // Signature checks already passed, by token, until the token's own expiry (issue 20): jose verifies
  // HS256 through WebCrypto, importing the key each time, which was a fifth of an authenticated read.
  // Only the signature and claims are kept; the session document is still read on every request.
  const checked = new Map<string, { claims: SessionInfo; expiresMs: number }>()
  /** Session id → its user, for sessions that exist; a commit to one drops it. */
  const sessions = createCommitCache<string | undefined>(
    store,
    (collection, id) => (collection === SESSIONS ? id : null),
    CHECKED_MAX,
    { internal: true },
  )

  /** The token's claims if its signature and expiry are valid; no store access. */
  async function signed(token: string): Promise<SessionInfo | null> {
    const kept = checked.get(token)
    if (kept) {
      if (kept.expiresMs > Date.now()) return kept.claims
      checked.delete(token)
      return null
    }
    try {
      const { payload } = await jwtVerify(token, secret, { algorithms: ['HS256'] })
      if (!payload.sub || !payload.jti) return null
      const purpose = typeof payload.purpose === 'string' ? payload.purpose : 'session'
      const bind = typeof payload.bind === 'string' ? payload.bind : undefined
      const claims = Object.freeze({
        user: payload.sub,
        sessionId: payload.jti,
        purpose,
        ...(bind ? { bind } : {}),
      })
      if (typeof payload.exp === 'number') {
        if (checked.size >= CHECKED_MAX) checked.delete(checked.keys().next().value!)
        checked.set(token, { claims, expiresMs: payload.exp * 1000 })
      }
      return claims
    } catch {
      return null
    }
  }

  return {
    async issue(user, options = {}) {
      const seconds = clampExpiry(options.expireSeconds)
      const sessionId = crypto.randomUUID()
      await store.write(
        {
          op: 'create',
          collection: SESSIONS,
          id: sessionId,
          body: {
            user,
            expires: new Date(Date.now() + seconds * 1000).toISOString(),
            ip: options.ip ?? null,
            userAgent: options.userAgent ?? null,
          },
        },
        { user },
      )
      return sign(user, sessionId, 'session', seconds)
    },
    issueReset(user, bind) {
      return sign(user, crypto.randomUUID(), 'reset', 3600, bind)
    },
    async verify(token) {
      const claims = await signed(token)
      if (!claims) return null
      if (claims.purpose === 'session') {
        // The session must exist AND belong to the token's subject: a session id is never a
        // credential for anyone but the user it was issued to. Kept between requests (issue 20: the
        // read was a fifth of an authenticated read) until a write touches that session, and only on
        // SQLite, whose one process sees every such write: a revoked session still fails the very next
        // request. On PostgreSQL another instance's logout is invisible here, so it is read each time.
        const owner = await sessions.get(claims.sessionId, async () => {
          const session = await store.get(SESSIONS, claims.sessionId)
          return typeof session?.user === 'string' ? session.user : undefined
        })
        if (owner !== claims.user) return null
      }
      return claims
    },
    verifyKept(token) {
      const kept = checked.get(token)
      if (!kept || kept.expiresMs <= Date.now() || kept.claims.purpose !== 'session') return undefined
      const owner = sessions.peek(kept.claims.sessionId)
      if (owner === undefined) return undefined
      return owner === kept.claims.user ? kept.claims : null
    },
    async revoke(sessionId) {
      if (await store.get(SESSIONS, sessionId)) {
        await store.write({ op: 'delete', collection: SESSIONS, id: sessionId }, { user: null })
      }
      hooks.onRevoke?.(sessionId)
    },
  }
}

/** `expire` on login is in seconds; absent or invalid means the default, and it is capped at a year. */
export function clampExpiry(expire: unknown): number {
  const n = typeof expire === 'string' ? Number(expire) : expire
  if (typeof n !== 'number' || !Number.isFinite(n) || n <= 0) return SESSION_DEFAULT_SECONDS
  return Math.min(Math.floor(n), SESSION_MAX_SECONDS)
}
