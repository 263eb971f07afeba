/**
 * The auth API (SPEC §7 Auth): login, session, logout, register, password reset and change, known
 * hosts and TOTP. One login limiter per server is shared by login and password change, so guessing a
 * password through either route counts against the same limit.
 */
import type { FastifyInstance } from 'fastify'
import { type RouteTable, route } from '../http/route-table'
import type { Services } from '../services'
import { knownHostRoutes } from './known-host'
import { loginRoutes } from './login'
import { passwordRoutes } from './password-routes'
import { loginLimiterOf } from './rate-limit'
import { registerRoutes } from './register'
import { publicOrigin } from './route-helpers'
import { totpRoutes } from './totp-routes'

/** The auth API (docs/operating/auth.md): sessions, self-registration, password reset and change, TOTP. */
export const AUTH_ROUTES: RouteTable = [
  route('POST', '/api/auth/login', 'public', '- (login limiter)'),
  route('GET', '/api/auth/session', 'session', '-'),
  route('DELETE', '/api/auth/logout', 'public', '-'),
  route('POST', '/api/auth/register', 'public', '- (the registration setting)', 'groups as for groups:u'),
  route('PATCH', '/api/auth/reset', 'public', '- (a reset token)'),
  route('PATCH', '/api/auth/password', 'account', 'own, or the account rule (accounts.ts)'),
  route('GET', '/api/auth/known-host', 'public', '-'),
  route('PATCH', '/api/auth/totp/:user', 'account', 'own, or the account rule (accounts.ts)'),
  route('DELETE', '/api/auth/totp/:user', 'account', 'own, or the account rule (accounts.ts)'),
]

export async function authModule(api: FastifyInstance, services: Services): Promise<void> {
  const limiter = loginLimiterOf(services)
  loginRoutes(api, services, limiter)
  registerRoutes(api, services)
  passwordRoutes(api, services, limiter)
  knownHostRoutes(api, services)
  totpRoutes(api, services, limiter)
  // Said once at start-up, where an operator looks: without a configured origin no reset mail goes out.
  if (!(await publicOrigin(services))) {
    services.serverLog(
      'WARN',
      'No public address configured (public_url setting or MOMENTUM_PUBLIC_URL): password reset e-mails are refused until one is set',
    )
  }
}
