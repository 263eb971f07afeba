/**
 * Every route the app registers is in exactly one domain's route table (src/server/routes.ts
 * ROUTE_TABLES, each table at the top of its domain's routes.ts) with the guard rule it really has,
 * and every table entry is registered: the tables cannot drift from the code. The routes are seen
 * through an onRoute hook added to the real Fastify instance the server builds.
 */
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { ROUTE_TABLES } from '../../src/server/routes'
import { startTestServer, type TestServer } from '../helpers/server'

const registered: string[] = []

vi.mock('fastify', async (importOriginal) => {
  const real = await importOriginal<typeof import('fastify')>()
  const create = real.default as unknown as (options?: unknown) => FastifyInstance
  const withHook = (options?: unknown) => {
    const app = create(options)
    app.addHook('onRoute', (route) => {
      const access = route.config?.access
      const kind = access === undefined ? 'default' : typeof access === 'function' ? 'computed' : access
      for (const method of [route.method].flat()) registered.push(`${method} ${route.url} ${kind}`)
    })
    return app
  }
  return { ...real, default: withHook }
})

/** Routes that plugins add, not a domain: @fastify/cors answers preflights with `OPTIONS *`. */
const PLUGIN_ROUTES = new Set(['OPTIONS * default'])

let server: TestServer

beforeAll(async () => {
  server = await startTestServer()
})

afterAll(async () => {
  await server.close()
})

describe('route tables', () => {
  it('list every registered route once, with its guard rule, and nothing else', () => {
    const gets = new Set(registered.filter((r) => r.startsWith('GET ')).map((r) => r.split(' ')[1]))
    // Fastify adds a HEAD beside every GET (exposeHeadRoutes); only a HEAD of its own is a route here.
    const actual = registered.filter(
      (r) => !PLUGIN_ROUTES.has(r) && !(r.startsWith('HEAD ') && gets.has(r.split(' ')[1])),
    )
    const listed = Object.values(ROUTE_TABLES).flatMap((table) =>
      table.map((entry) => `${entry.method} ${entry.path} ${entry.access}`),
    )
    expect(actual.length).toBeGreaterThan(100)
    expect(listed.filter((r, i) => listed.indexOf(r) !== i)).toEqual([])
    expect(actual.filter((r) => !listed.includes(r))).toEqual([])
    expect(listed.filter((r) => !actual.includes(r))).toEqual([])
  })

  it('say a permission and the write rules for every route', () => {
    for (const table of Object.values(ROUTE_TABLES)) {
      for (const entry of table) {
        expect(entry.permission, `${entry.method} ${entry.path}`).not.toBe('')
        expect(entry.writes, `${entry.method} ${entry.path}`).not.toBe('')
      }
    }
  })
})
