/**
 * POST /api/batch: many document writes in one request and one store transaction (issue 11), so an
 * outbox of thousands of writes (an import) reaches the server in a few requests. Each entry behaves
 * exactly like its single route (data/routes.ts), by the same rules (data/write-rules.ts): its own
 * Idempotency-Key (hashed over the same method, path and body as the single request, so a retry may go
 * either way and still be recognised), its own If-Match, its own permission through the shared matcher,
 * and its own answer. A refused entry (403, 404, 409, 400) is rolled back alone and the others commit:
 * conflicts stay per entry, which is what the sync engine's replay needs (docs/decisions/sync.md#batch).
 *
 * Only data documents (`/api/data/{collection}[/{id}]`) are accepted: the modules (users, groups, …)
 * have side effects and extra rules on their routes that a batch must not bypass.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { BATCH_MAX_MUTATIONS } from '../../shared/constants'
import { BATCH_TEXT, SERVER_TEXT } from '../../shared/texts'
import { requirePermission } from '../auth/guard'
import { ApiError, badRequest, errorBody } from '../errors'
import { type RouteTable, route } from '../http/route-table'
import { IDEMPOTENCY_KEY_MAX, JSON_TYPE, keyedContext } from '../http/writes'
import type { Services } from '../services'
import { isPlainObject } from '../store/doc'
import type { EachWrite } from '../store/types'
import {
  bodyIdPermission,
  dataCollection,
  documentId,
  hideUnreadableCurrent,
  isWriteMethod,
  planWrite,
  requireCreateIfMissing,
  type WriteMethod,
  writePermission,
} from './write-rules'

/**
 * POST /api/batch: data-document writes, each judged exactly as its single route (data/write-rules.ts).
 * It lives in data/, not a batch/ of its own, because it is the data domain's writes many at a time:
 * the rules it must match are this folder's.
 */
export const BATCH_ROUTES: RouteTable = [
  route(
    'POST',
    '/api/batch',
    'session',
    'per entry, as its single /api/data route',
    'data/write-rules.ts planWrite, requireCreateIfMissing; Idempotency-Key',
  ),
]

export interface BatchResult {
  status: number
  body: unknown
  /** true when the entry's Idempotency-Key had already been answered: nothing was written again. */
  replayed?: boolean
}

function errorResult(error: unknown): BatchResult {
  if (error instanceof ApiError) return { status: error.status, body: errorBody(error) }
  throw error
}

/** `/api/data/{collection}[/{id}]`, decoded and validated as the router and data.ts would. */
function parsePath(method: WriteMethod, path: string): { collection: string; id?: string } {
  const match = /^\/api\/data\/([^/?#]+)(?:\/([^/?#]+))?$/.exec(path)
  if (!match) throw badRequest(BATCH_TEXT.unsupported(method, path))
  let name: string
  let id: string | undefined
  try {
    name = decodeURIComponent(match[1]!)
    id = match[2] === undefined ? undefined : decodeURIComponent(match[2])
  } catch {
    throw badRequest(SERVER_TEXT.invalidId)
  }
  const collection = dataCollection(name)
  if (id !== undefined) documentId(id)
  if (id === undefined && method !== 'POST') throw badRequest(BATCH_TEXT.unsupported(method, path))
  return { collection, id }
}

export async function batchModule(api: FastifyInstance, services: Services): Promise<void> {
  const { store } = services

  // 'session': the guard lets any logged-in caller in; every entry is then checked on its own path.
  api.post('/batch', { config: { access: 'session' } }, async (req, reply) => {
    const raw = isPlainObject(req.body) ? req.body.mutations : undefined
    if (!Array.isArray(raw)) throw badRequest(BATCH_TEXT.badBody)
    if (raw.length === 0 || raw.length > BATCH_MAX_MUTATIONS)
      throw badRequest(BATCH_TEXT.tooMany(BATCH_MAX_MUTATIONS))

    const results: Array<BatchResult | undefined> = new Array(raw.length)
    /** An entry's answer as JSON text, where the store already serialised its document. */
    const texts: Array<string | undefined> = new Array(raw.length)
    const runs: EachWrite[] = []
    const positions: number[] = []
    for (const [i, entry] of raw.entries()) {
      try {
        runs.push(await prepare(req, entry))
        positions.push(i)
      } catch (error) {
        results[i] = errorResult(error)
      }
    }
    const outcomes = runs.length ? await store.writeEach(runs) : []
    outcomes.forEach((outcome, k) => {
      const i = positions[k]!
      if (outcome.ok) {
        const { status, body, replayed, json } = outcome.result
        results[i] = replayed ? { status, body, replayed } : { status, body }
        // The same text JSON.stringify would give ({status, body}), without serialising the body again.
        if (!replayed && json !== undefined) texts[i] = `{"status":${status},"body":${json}}`
      } else {
        results[i] = errorResult(hideUnreadableCurrent(req, runs[k]!.write.collection, outcome.error))
      }
    })
    const parts = results.map((r, i) => texts[i] ?? JSON.stringify(r))
    return reply.type(JSON_TYPE).send(`{"results":[${parts.join(',')}]}`)
  })

  /** An entry planned and checked as its single route would (data/write-rules.ts), in the batch's order. */
  async function prepare(req: FastifyRequest, entry: unknown): Promise<EachWrite> {
    if (!isPlainObject(entry) || typeof entry.method !== 'string' || typeof entry.path !== 'string')
      throw badRequest(BATCH_TEXT.badEntry)
    const method = entry.method.toUpperCase()
    if (!isWriteMethod(method)) throw badRequest(BATCH_TEXT.unsupported(method, entry.path))
    const { collection, id } = parsePath(method, entry.path)
    const write = planWrite(method, collection, id, entry.body, entry.ifMatch)
    requirePermission(req, writePermission(method, collection, id))
    const named = bodyIdPermission(write, id)
    if (named) requirePermission(req, named)
    await requireCreateIfMissing(req, store, write)
    const key = entry.idempotencyKey
    if (key === undefined || key === null || key === '') return { write, ctx: { user: req.auth.user } }
    if (typeof key !== 'string' || key.length > IDEMPOTENCY_KEY_MAX) throw badRequest(BATCH_TEXT.badKey)
    return { write, ctx: keyedContext(services, req, key, method, entry.path, entry.body) }
  }
}
