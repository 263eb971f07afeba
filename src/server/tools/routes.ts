/**
 * /api/tools (SPEC §7). `healthcheck` is public so load balancers and uptime checks need no account;
 * it touches the store, so "ok" means the server can actually read its data. `dummy-file` serves the
 * SPEC §9 speed test: N bytes of incompressible data (random, so a compressing proxy cannot make the
 * link look faster), never cached, and capped so it cannot be used to tie up the server.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import { Readable } from 'node:stream'
import type { FastifyInstance } from 'fastify'
import { DUMMY_FILE_MAX_BYTES, SPEED_TEST_FIRST_BYTES } from '../../shared/constants'
import { COLLECTION_TEXT } from '../../shared/texts'
import { badRequest } from '../errors'
import { type RouteTable, route } from '../http/route-table'
import type { Services } from '../services'

/** Tools (SPEC §7): the healthcheck and the speed test's file. */
export const TOOLS_ROUTES: RouteTable = [
  route('GET', '/api/tools/healthcheck', 'public', '-'),
  route('GET', '/api/tools/dummy-file', 'session', '-'),
]

/** One random block reused for every response: random enough for the purpose, no per-request cost. */
const BLOCK = crypto.randomBytes(64 * 1024)

const VERSION: string = JSON.parse(
  fs.readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'),
).version

export function parseDummySize(value: unknown): number {
  if (value === undefined || value === '') return SPEED_TEST_FIRST_BYTES
  if (typeof value !== 'string' || !/^\d{1,9}$/.test(value) || Number(value) > DUMMY_FILE_MAX_BYTES) {
    throw badRequest(COLLECTION_TEXT.dummySize(DUMMY_FILE_MAX_BYTES))
  }
  return Number(value)
}

function dummyStream(size: number): Readable {
  let left = size
  return new Readable({
    read() {
      if (left <= 0) {
        this.push(null)
        return
      }
      const n = Math.min(left, BLOCK.length)
      left -= n
      this.push(n === BLOCK.length ? BLOCK : BLOCK.subarray(0, n))
    },
  })
}

export async function toolsModule(api: FastifyInstance, services: Services): Promise<void> {
  api.get('/tools/healthcheck', { config: { access: 'public' } }, async (_req, reply) => {
    await services.store.headSeq()
    reply.header('cache-control', 'no-store')
    return { ok: true, version: VERSION, store: services.store.kind, time: new Date().toISOString() }
  })

  api.get('/tools/dummy-file', { config: { access: 'session' } }, async (req, reply) => {
    const size = parseDummySize((req.query as Record<string, unknown>).size)
    return reply
      .header('cache-control', 'no-store')
      .header('content-length', String(size))
      .header('content-disposition', 'attachment; filename="dummy.bin"')
      .type('application/octet-stream')
      .send(dummyStream(size))
  })
}
