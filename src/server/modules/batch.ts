/**
 * POST /api/batch: many document writes in one request and one store transaction (issue 11), so an
 * outbox of thousands of writes (an import) reaches the server in a few requests. Each entry behaves
 * exactly like its single route (modules/data.ts): its own Idempotency-Key (hashed over the same
 * method, path and body as the single request, so a retry may go either way and still be recognised),
 * its own If-Match, its own permission through the shared matcher, and its own answer. A refused entry
 * (403, 404, 409, 400) is rolled back alone and the others commit: conflicts stay per entry, which is
 * what the sync engine's replay needs (docs/decisions/sync.md#batch).
 *
 * Only data documents (`/api/data/{collection}[/{id}]`) are accepted: the modules (users, groups, …)
 * have side effects and extra rules on their routes that a batch must not bypass.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { BATCH_MAX_MUTATIONS } from '../../shared/constants'
import { isValidCollectionName, isValidId } from '../../shared/ids'
import { decide } from '../../shared/permissions'
import { BATCH_TEXT, requiresOneOf, SERVER_TEXT } from '../../shared/texts'
import { allowed } from '../auth/guard'
import { serverHmac } from '../auth/server-key'
import { ApiError, badRequest } from '../errors'
import { scopedKey } from '../http/idempotency'
import { JSON_TYPE, parseRevision } from '../http/writes'
import type { Services } from '../services'
import { isPlainObject } from '../store/doc'
import type { Doc, EachWrite, Write } from '../store/types'
import { DATA_PREFIX } from './data'

export interface BatchResult {
  status: number
  body: unknown
  /** true when the entry's Idempotency-Key had already been answered: nothing was written again. */
  replayed?: boolean
}

interface Planned {
  write: Write
  /** Permissions the entry needs, every one of them (each a list of alternatives). */
  needs: string[][]
  /** A PUT that creates when the document is missing also needs this (as the single route). */
  createIfMissing?: string
}

const METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])
const LETTER: Record<string, string> = { POST: 'c', PUT: 'u', PATCH: 'u', DELETE: 'd' }

function errorResult(error: unknown): BatchResult {
  if (error instanceof ApiError)
    return { status: error.status, body: { error: error.code, message: error.message, ...error.details } }
  throw error
}

/** `/api/data/{collection}[/{id}]`, decoded and validated as the router and data.ts would. */
function parsePath(method: string, path: string): { collection: string; id?: string } {
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
  if (!isValidCollectionName(name)) throw badRequest(SERVER_TEXT.invalidCollection)
  if (id !== undefined && !isValidId(id)) throw badRequest(SERVER_TEXT.invalidId)
  if (id === undefined && method !== 'POST') throw badRequest(BATCH_TEXT.unsupported(method, path))
  return { collection: DATA_PREFIX + name, id }
}

function plan(method: string, path: string, body: unknown, ifMatch: unknown): Planned {
  const { collection, id } = parsePath(method, path)
  const letter = LETTER[method]!
  const needs: string[][] = [[`${collection}${id === undefined ? '' : `/${id}`}:${letter}`]]
  if (method === 'DELETE') {
    return { write: { op: 'delete', collection, id: id!, expectedRev: parseRevision(ifMatch) }, needs }
  }
  if (!isPlainObject(body)) throw badRequest('Request body must be a JSON object')
  if (method === 'POST') {
    if (id === undefined && body._id !== undefined && !isValidId(body._id))
      throw badRequest(SERVER_TEXT.invalidId)
    const target = id ?? (body._id as string | undefined)
    // The single route checks only `data/c:c` here; naming the id too is never weaker (`data/c/x:n`).
    if (target !== undefined && id === undefined) needs.push([`${collection}/${target}:c`])
    return { write: { op: 'create', collection, id: target, body }, needs }
  }
  const expectedRev = parseRevision(ifMatch)
  if (method === 'PUT') {
    return {
      write: { op: 'put', collection, id: id!, body, expectedRev },
      needs,
      createIfMissing: expectedRev === undefined ? `${collection}/${id}:c` : undefined,
    }
  }
  return { write: { op: 'patch', collection, id: id!, body, expectedRev }, needs }
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
        results[i] = errorResult(hideCurrent(req, runs[k]!.write.collection, outcome.error))
      }
    })
    const parts = results.map((r, i) => texts[i] ?? JSON.stringify(r))
    return reply.type(JSON_TYPE).send(`{"results":[${parts.join(',')}]}`)
  })

  async function prepare(req: FastifyRequest, entry: unknown): Promise<EachWrite> {
    if (!isPlainObject(entry) || typeof entry.method !== 'string' || typeof entry.path !== 'string')
      throw badRequest(BATCH_TEXT.badEntry)
    const method = entry.method.toUpperCase()
    if (!METHODS.has(method)) throw badRequest(BATCH_TEXT.unsupported(method, entry.path))
    const p = plan(method, entry.path, entry.body, entry.ifMatch)
    for (const alternatives of p.needs) {
      if (!allowed(req, alternatives)) throw new ApiError('forbidden', requiresOneOf(alternatives))
    }
    if (p.createIfMissing && !allowed(req, p.createIfMissing)) {
      const w = p.write as Extract<Write, { op: 'put' }>
      if (!(await store.get(w.collection, w.id)))
        throw new ApiError('forbidden', requiresOneOf([p.createIfMissing]))
    }
    const key = entry.idempotencyKey
    if (key === undefined || key === null || key === '')
      return { write: p.write, ctx: { user: req.auth.user } }
    if (typeof key !== 'string' || key.length > 200) throw badRequest(BATCH_TEXT.badKey)
    // The same hash as the single route's (http/writes.ts writeContext): method, raw path, JSON body.
    const body = method === 'DELETE' ? (entry.body ?? null) : entry.body
    const requestHash = serverHmac(
      services.config.dataDir,
      'idempotency',
      method,
      entry.path,
      JSON.stringify(body),
    )
    // Stored under the sending credential, as the single routes do (http/idempotency.ts).
    return { write: p.write, ctx: { user: req.auth.user, idempotencyKey: scopedKey(req, key), requestHash } }
  }
}

/** A 409 shows the current document only to a caller who may read it (as data.ts does). */
function hideCurrent(req: FastifyRequest, collection: string, error: unknown): unknown {
  if (!(error instanceof ApiError) || error.code !== 'conflict') return error
  const current = error.details?.current as Doc | undefined
  if (!current) return error
  const visible = decide(req.auth.grants, `${collection}/${current._id}`, 'r').allowed
  return new ApiError('conflict', error.message, visible ? { current } : undefined)
}
