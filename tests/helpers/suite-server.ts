/**
 * One real server for a whole test file: started (and the admin logged in) in beforeAll, closed in
 * afterAll. Most server and sync suites open the same way, so the hooks live here once.
 *
 * The server only exists once beforeAll has run, but the suites' helpers are written at module level
 * against `server`, so this returns a stand-in that forwards every member to the running server. Use
 * it inside tests and hooks only; before beforeAll (or after afterAll) it throws.
 */
import { afterAll, beforeAll } from 'vitest'
import type { ServerConfig } from '../../src/server/config'
import { startTestServer, type TestServer } from './server'

export interface SuiteServer extends TestServer {
  /** The admin's session token, logged in once for the file (not with `login: false`). */
  readonly admin: string
}

export interface SuiteOptions {
  /** false: no admin session, for suites where one more login would change what they count. */
  login?: boolean
}

/**
 * Registers the hooks. `config` may be a function when it depends on something an earlier beforeAll
 * starts (an SMTP or payment peer): it is read when the server starts. Hooks run in the order they
 * are registered and afterAll in reverse, so a peer started before this call is closed after the
 * server.
 */
export function suiteServer(
  config: Partial<ServerConfig> | (() => Partial<ServerConfig>) = {},
  { login = true }: SuiteOptions = {},
): SuiteServer {
  let running: TestServer | undefined
  let admin: string | undefined
  beforeAll(async () => {
    // Kept before the login so afterAll still closes the server when the login fails.
    running = await startTestServer(typeof config === 'function' ? config() : config)
    if (login) admin = await running.login()
  })
  afterAll(async () => {
    await running?.close()
    running = undefined
    admin = undefined
  })
  return new Proxy({} as SuiteServer, {
    get(_target, key) {
      if (!running) throw new Error(`suiteServer: "${String(key)}" read outside the file's tests`)
      if (key !== 'admin') return Reflect.get(running, key)
      if (admin === undefined) throw new Error('suiteServer: no admin session (login: false)')
      return admin
    },
  })
}
