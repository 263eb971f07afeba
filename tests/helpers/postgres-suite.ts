/**
 * Vitest scaffolding for PostgreSQL suites: a describe() that skips (saying why) when no PostgreSQL can
 * be had, and the two-servers-on-one-database setup the multi-instance suites share. Kept apart from
 * postgres.ts because that one is imported outside vitest too (the Playwright soak), where importing
 * vitest would fail.
 */
import { afterAll, beforeAll, describe } from 'vitest'
import type { ServerConfig } from '../../src/server/config'
import { findPostgres, startTestPostgres, type TestPostgres } from './postgres'
import { startTestServer, type TestServer } from './server'

/** describe() for a suite that needs PostgreSQL: skipped, with the reason in its title, without one. */
export function describePostgres(title: string, body: () => void): void {
  const postgres = findPostgres()
  if (postgres.available) describe(title, body)
  else describe.skip(`${title} (skipped: ${postgres.reason})`, body)
}

export interface ServerPair {
  pg: TestPostgres
  databaseUrl: string
  a: TestServer
  b: TestServer
}

/**
 * Two real servers, each with its own data dir, on one fresh PostgreSQL database: registers the
 * beforeAll that starts them and the afterAll that closes them. The returned object's fields are set
 * once that beforeAll has run. `config` is called inside it, so it may use a peer started by an
 * earlier beforeAll (vitest runs afterAll hooks in reverse, so such a peer outlives both servers).
 */
export function serverPairOnPostgres(config: () => Partial<ServerConfig> = () => ({})): ServerPair {
  const pair = {} as ServerPair
  beforeAll(async () => {
    pair.pg = await startTestPostgres()
    pair.databaseUrl = await pair.pg.newDatabase()
    const overrides = { ...config(), databaseUrl: pair.databaseUrl }
    // Started one after the other: the first makes the admin user, the second finds the database ready.
    pair.a = await startTestServer(overrides)
    pair.b = await startTestServer(overrides)
  }, 120_000)
  afterAll(async () => {
    await pair.a?.close()
    await pair.b?.close()
    await pair.pg?.close()
  })
  return pair
}
