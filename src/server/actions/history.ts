/**
 * Run history (docs/operating/actions.md): the records of the `action-runs` collection read with filters, and the
 * live tail. A run record is an ordinary document, so its sync topic (`action-runs`) reaches only
 * readers of that collection; the tail topic ACTION_RUNS_TOPIC instead reaches whoever may read the
 * action itself (`actions/{id}:r`), the same right that reads its history over HTTP. It hangs on the
 * store's commit feed, which PostgreSQL fans out to every instance, so a run finished by one server is
 * tailed on the sockets of all of them.
 *   GET /api/actions/{id}/runs?status&trigger&before&limit   actions/{id}:r, X-Total-Count
 *   GET /api/action-runs?action&status&trigger&before&limit  any session; only actions it may read
 */
import type { FastifyInstance } from 'fastify'
import { ACTION_RUN_STATUSES, ACTION_RUNS_TOPIC, ACTION_TRIGGERS, HISTORY_LIMITS } from '../../shared/actions'
import { isValidId } from '../../shared/ids'
import { isPlainObject } from '../../shared/merge-patch'
import { decide } from '../../shared/permissions'
import { ACTION_TEXT } from '../../shared/texts'
import { allowed } from '../auth/guard'
import { idParam } from '../collections/routes'
import { badRequest } from '../errors'
import type { Services } from '../services'
import type { Filter } from '../store/types'
import { ACTION_RUNS, ACTIONS } from './run'

const TRIGGERS: readonly string[] = [...ACTION_TRIGGERS, 'DEBUG']
const STATUSES: readonly string[] = ACTION_RUN_STATUSES

interface HistoryQuery {
  filter: Filter
  limit: number
}

/** The filters both routes take; anything malformed is a 400, never silently dropped. */
function parseHistoryQuery(query: unknown): HistoryQuery {
  const q = isPlainObject(query) ? query : {}
  const filter: Filter = {}
  const one = (name: string): string | undefined => {
    const v = q[name]
    if (v === undefined || v === '') return undefined
    if (typeof v !== 'string') throw badRequest(ACTION_TEXT.historyQueryInvalid(name))
    return v
  }
  const status = one('status')
  if (status !== undefined) {
    if (!STATUSES.includes(status)) throw badRequest(ACTION_TEXT.historyQueryInvalid('status'))
    filter.status = status
  }
  const trigger = one('trigger')
  if (trigger !== undefined) {
    if (!TRIGGERS.includes(trigger)) throw badRequest(ACTION_TEXT.historyQueryInvalid('trigger'))
    filter.trigger = trigger
  }
  const before = one('before')
  if (before !== undefined) {
    if (Number.isNaN(Date.parse(before))) throw badRequest(ACTION_TEXT.historyQueryInvalid('before'))
    filter.start = { $lt: new Date(before).toISOString() }
  }
  const action = one('action')
  if (action !== undefined) {
    if (!isValidId(action)) throw badRequest(ACTION_TEXT.historyQueryInvalid('action'))
    filter.action = action
  }
  const rawLimit = one('limit')
  const limit = rawLimit === undefined ? HISTORY_LIMITS.defaultLimit : Number(rawLimit)
  if (!Number.isInteger(limit) || limit < 1 || limit > HISTORY_LIMITS.maxLimit)
    throw badRequest(ACTION_TEXT.historyQueryInvalid('limit'))
  return { filter, limit }
}

export function historyRoutes(api: FastifyInstance, services: Services): void {
  const { store, hub } = services

  api.get(
    `/${ACTIONS}/:id/runs`,
    { config: { access: (req) => `${ACTIONS}/${idParam(req)}:r` } },
    async (req, reply) => {
      const { filter, limit } = parseHistoryQuery(req.query)
      const { items, total } = await store.list(ACTION_RUNS, {
        filter: { ...filter, action: idParam(req) },
        sort: [['start', -1]],
        limit,
      })
      reply.header('x-total-count', String(total))
      return items
    },
  )

  api.get(`/${ACTION_RUNS}`, { config: { access: 'session' } }, async (req) => {
    const { filter, limit } = parseHistoryQuery(req.query)
    const out = []
    // Pages of the newest runs, keeping those of actions the caller may read, until the limit.
    let before = filter.start as { $lt: string } | undefined
    for (let page = 0; page < 20 && out.length < limit; page++) {
      const { items } = await store.list(ACTION_RUNS, {
        filter: before ? { ...filter, start: before } : filter,
        sort: [['start', -1]],
        limit: HISTORY_LIMITS.maxLimit,
      })
      for (const run of items) {
        if (out.length < limit && allowed(req, `${ACTIONS}/${String(run.action)}:r`)) out.push(run)
      }
      if (items.length < HISTORY_LIMITS.maxLimit) break
      before = { $lt: String(items[items.length - 1]!.start) }
    }
    return out
  })

  const unlisten = store.onCommit((changes) => {
    for (const change of changes) {
      if (change.collection !== ACTION_RUNS || change.rev !== 1 || !change.doc) continue
      const run = change.doc
      hub.publish(ACTION_RUNS_TOPIC, run, {
        accept: (client) => decide(client.grants, `${ACTIONS}/${String(run.action)}`, 'r').allowed,
      })
    }
  })
  api.addHook('onClose', async () => unlisten())
}
