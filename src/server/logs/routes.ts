/**
 * The logs API (SPEC §7): channels of log lines {time, level, log, ctx}, channel C stored as the
 * collection `logs/C` so reading needs `logs/C:r` and the lines sync like any document. Writing to the
 * `client` channel is open to every login session on purpose: the console reports its own errors there
 * for whoever is using it (SPEC §8). Every other channel needs `logs/C:c` (so nobody can fill a channel
 * that operators read as trustworthy), and so does `client` for an API token. The `server` channel is
 * the server's own log (services.serverLog) and is refused here (SPEC §5), so no client can forge it.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { CLIENT_LOG_CHANNEL, LOG_LEVELS, type LogLevel, SERVER_LOG_CHANNEL } from '../../shared/constants'
import { isValidCollectionName, isValidId } from '../../shared/ids'
import { can } from '../../shared/permissions'
import { BROWSER_SECURITY_TEXT, LOG_TEXT, SERVER_TEXT } from '../../shared/texts'
import { type Access, requirePermission } from '../auth/guard'
import { ApiError, badRequest } from '../errors'
import { compressedRoutes } from '../http/compressed'
import { parseListQuery } from '../http/list-query'
import { DOC_WRITE, type RouteTable, route } from '../http/route-table'
import { parseIfMatch, sendDrop, sendWrite, writeContext } from '../http/writes'
import type { Services } from '../services'
import { isPlainObject } from '../store/doc'
import type { Body, Filter, Write } from '../store/types'
import { createLogBudget } from './budget'

/** Log channels `logs/{channel}` (SPEC §7); the `server` channel is refused for writing. */
export const LOGS_ROUTES: RouteTable = [
  route('GET', '/api/logs/channels', 'session', 'the channels the caller may read'),
  route(
    'POST',
    '/api/logs/:channel',
    'session',
    'logs/{channel}:c (client: any login session)',
    'Idempotency-Key; the write budget (budget.ts)',
  ),
  route('GET', '/api/logs/:channel', 'computed', 'logs/{channel}:r'),
  route('DELETE', '/api/logs/:channel', 'computed', 'logs/{channel}:d', 'http/writes.ts sendDrop'),
  route('DELETE', '/api/logs/:channel/:id', 'computed', 'logs/{channel}/{id}:d', DOC_WRITE),
]

export const LOGS_PREFIX = 'logs/'
/** A stack trace fits with room to spare; a file pasted into a log line does not. */
export const LOG_TEXT_MAX = 65_536
/** One request carries at most this many lines: a client's buffered batch, not a bulk import. */
export const LOG_BATCH_MAX = 1000
/** The search box's text; longer is not a search. */
const SEARCH_MAX = 200
/** `GET /logs/channels` is a route, so a channel by that name could be written but never read. */
const CHANNELS_ROUTE = 'channels'

interface Params {
  channel?: unknown
  id?: unknown
}

function channelParam(req: FastifyRequest): string {
  const channel = (req.params as Params).channel
  if (!isValidCollectionName(channel)) throw badRequest(SERVER_TEXT.invalidCollection)
  return channel
}

function access(letter: 'r' | 'd', withId = false): { access: Access } {
  return {
    access: (req) => {
      const id = (req.params as Params).id
      if (withId && !isValidId(id)) throw badRequest(SERVER_TEXT.invalidId)
      return `${LOGS_PREFIX}${channelParam(req)}${withId ? `/${id}` : ''}:${letter}`
    },
  }
}

function parseLevel(value: unknown): LogLevel {
  const level = typeof value === 'string' ? value.trim().toUpperCase() : ''
  if (!(LOG_LEVELS as readonly string[]).includes(level)) throw badRequest(LOG_TEXT.badLevel(LOG_LEVELS))
  return level as LogLevel
}

/** ISO 8601 text or epoch milliseconds → ISO text, so stored times compare correctly as strings. */
function parseTime(value: unknown): string {
  const date = typeof value === 'string' || typeof value === 'number' ? new Date(value) : null
  if (!date || (typeof value === 'string' && !value.trim()) || Number.isNaN(date.getTime())) {
    throw badRequest(LOG_TEXT.badTime)
  }
  return date.toISOString()
}

/** One incoming line → the stored body; unknown fields are dropped, the time stamped when missing. */
export function logEntry(raw: unknown, now: string): Body {
  if (!isPlainObject(raw)) throw badRequest(LOG_TEXT.badEntry)
  if (typeof raw.log !== 'string' || raw.log.length > LOG_TEXT_MAX)
    throw badRequest(LOG_TEXT.badLog(LOG_TEXT_MAX))
  return {
    time: raw.time === undefined || raw.time === null ? now : parseTime(raw.time),
    level: parseLevel(raw.level),
    log: raw.log,
    ctx: raw.ctx === undefined ? null : raw.ctx,
  }
}

/** The `level`, `q`, `from` and `to` parameters as a filter, added to any `filter` the caller gave. */
function logFilter(query: Record<string, unknown>, base: Filter | undefined): Filter | undefined {
  const parts: Filter[] = base ? [base] : []
  if (typeof query.level === 'string' && query.level) {
    parts.push({ level: { $in: query.level.split(',').map(parseLevel) } })
  }
  if (query.q !== undefined && query.q !== '') {
    if (typeof query.q !== 'string' || query.q.length > SEARCH_MAX)
      throw badRequest(LOG_TEXT.badSearch(SEARCH_MAX))
    const literal = query.q.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    parts.push({ log: { $regex: literal, $options: 'i' } })
  }
  if (query.from !== undefined && query.from !== '') parts.push({ time: { $gte: parseTime(query.from) } })
  if (query.to !== undefined && query.to !== '') parts.push({ time: { $lte: parseTime(query.to) } })
  if (parts.length === 0) return undefined
  return parts.length === 1 ? parts[0] : { $and: parts }
}

export async function logsModule(api: FastifyInstance, services: Services): Promise<void> {
  const { store } = services
  const budget = createLogBudget()

  // The console's two log pages always exist; other channels appear once they hold a line.
  api.get('/logs/channels', { config: { access: 'session' } }, async (req) => {
    const counts = new Map<string, number>([
      [CLIENT_LOG_CHANNEL, 0],
      [SERVER_LOG_CHANNEL, 0],
    ])
    for (const c of await store.collections(LOGS_PREFIX))
      counts.set(c.name.slice(LOGS_PREFIX.length), c.count)
    return [...counts]
      .filter(([name]) => can(req.auth.grants, `${LOGS_PREFIX}${name}:r`))
      .map(([name, count]) => ({ name, count }))
      .sort((a, b) => a.name.localeCompare(b.name))
  })

  api.post('/logs/:channel', { config: { access: 'session' } }, async (req, reply) => {
    const channel = channelParam(req)
    if (channel === SERVER_LOG_CHANNEL) throw badRequest(SERVER_TEXT.serverChannelReserved)
    if (channel === CHANNELS_ROUTE) throw badRequest(LOG_TEXT.channelsReserved)
    if (channel !== CLIENT_LOG_CHANNEL || req.auth.apiToken)
      requirePermission(req, `${LOGS_PREFIX}${channel}:c`)
    const single = !Array.isArray(req.body)
    const raw = single ? [req.body] : (req.body as unknown[])
    if (raw.length === 0 || raw.length > LOG_BATCH_MAX) throw badRequest(LOG_TEXT.badCount(LOG_BATCH_MAX))
    // Counted before the write, per credential: any session may write `client`, so any could flood it.
    const wait = budget.take(
      req.auth.sessionId ?? `user:${req.auth.user}`,
      raw.length,
      JSON.stringify(raw).length,
    )
    if (wait > 0) {
      reply.header('retry-after', String(Math.ceil(wait / 1000)))
      throw new ApiError('too_many_requests', BROWSER_SECURITY_TEXT.logsTooMany)
    }
    const now = new Date().toISOString()
    const writes: Write[] = raw.map((entry) => ({
      op: 'create',
      collection: LOGS_PREFIX + channel,
      body: logEntry(entry, now),
    }))

    // The batch and its Idempotency-Key record commit in one transaction, so concurrent repeats of one
    // request write it once (the request hash tells a single line from a one-line array).
    const results = await store.writeMany(writes, writeContext(services, req))
    const docs = results.map((r) => r.body)
    if (results[0]?.replayed) reply.header('idempotent-replayed', 'true')
    return reply.status(201).send(single ? docs[0] : docs)
  })

  // Newest first unless the caller sorts; filter, limit and offset as on every list.
  await compressedRoutes(api, (scope) => {
    scope.get('/logs/:channel', { config: access('r') }, async (req, reply) => {
      const channel = channelParam(req)
      const query = req.query as Record<string, unknown>
      const list = parseListQuery(query)
      const result = await store.list(LOGS_PREFIX + channel, {
        ...list,
        filter: logFilter(query, list.filter),
        sort: list.sort ?? [
          ['time', -1],
          ['_id', -1],
        ],
      })
      reply.header('x-total-count', String(result.total))
      return result.items
    })
  })

  api.delete('/logs/:channel', { config: access('d') }, async (req, reply) =>
    sendDrop(services, req, reply, LOGS_PREFIX + channelParam(req)),
  )

  // Single deletions exist for the offline console, which queues them like any other write.
  api.delete('/logs/:channel/:id', { config: access('d', true) }, async (req, reply) => {
    const write: Write = {
      op: 'delete',
      collection: LOGS_PREFIX + channelParam(req),
      id: (req.params as { id: string }).id,
      expectedRev: parseIfMatch(req),
    }
    return sendWrite(services, req, reply, write)
  })
}
