/**
 * The auth API (SPEC §7 Auth): login, session, logout, register, password reset and change, known
 * hosts and TOTP. One login limiter per server is shared by login and password change, so guessing a
 * password through either route counts against the same limit.
 */
import type { FastifyInstance } from 'fastify'
import type { Services } from '../services'
import { knownHostRoutes } from './known-host'
import { loginRoutes } from './login'
import { passwordRoutes } from './password-routes'
import { loginLimiterOf } from './rate-limit'
import { registerRoutes } from './register'
import { publicOrigin } from './route-helpers'
import { totpRoutes } from './totp-routes'

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
