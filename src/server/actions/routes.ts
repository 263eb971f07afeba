/**
 * Actions (issue 15, docs/operating/actions.md): the `actions` collection at /api/actions with the shared
 * collection routes (permission key `actions`, SPEC §6), validated as the whole document a write
 * produces, and the routes that run one in the sandbox:
 *   GET|POST|PUT|PATCH|DELETE /api/actions/run/{id}  an HTTP-triggered action; the method must be its
 *       trigger's; needs `actions/run/{id}:{letter of the method}`; answers with {status, headers, body}
 *   POST /api/actions/debug/{id} {input?, commit?}  runs any action with an input (needs actions/{id}:u);
 *       answers with result, logs, timing and the writes, which are not done unless commit is true
 *   GET  /api/actions/{id}/runs, /api/action-runs  the run records, with filters (actions/history.ts)
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import {
  type ActionDoc,
  type ActionSaveNeeds,
  actionError,
  actionSaveNeeds,
  HTTP_TRIGGERS,
  heldNeeds,
} from '../../shared/actions'
import { isPlainObject, mergePatch, stripMeta } from '../../shared/merge-patch'
import { ACTION_TEXT, SERVER_TEXT } from '../../shared/texts'
import { delegationRefused, principalOf, requireActAs, requireHeld } from '../auth/delegation'
import { idParam, registerCollection } from '../collections/routes'
import { ApiError, badRequest, forbidden } from '../errors'
import { collectionTable, type RouteTable, route } from '../http/route-table'
import type { Services } from '../services'
import type { Body } from '../store/types'
import { historyRoutes } from './history'
import { ACTIONS, runAction } from './run'
import { nextCronRun } from './schedule'

/** Actions (issue 15): the saved scripts, their HTTP triggers, a debug run and the run history (history.ts). */
export const ACTIONS_ROUTES: RouteTable = [
  ...collectionTable('actions'),
  route('GET', '/api/actions/run/:id', 'computed', 'actions/run/{id}:r'),
  route('POST', '/api/actions/run/:id', 'computed', 'actions/run/{id}:c', 'Idempotency-Key'),
  route('PUT', '/api/actions/run/:id', 'computed', 'actions/run/{id}:u', 'Idempotency-Key'),
  route('PATCH', '/api/actions/run/:id', 'computed', 'actions/run/{id}:u', 'Idempotency-Key'),
  route('DELETE', '/api/actions/run/:id', 'computed', 'actions/run/{id}:d', 'Idempotency-Key'),
  route('POST', '/api/actions/debug/:id', 'computed', 'actions/{id}:u'),
  route('GET', '/api/actions/:id/runs', 'computed', 'actions/{id}:r'),
  route('GET', '/api/action-runs', 'session', 'the runs of actions the caller may read'),
]

const LETTERS: Record<string, string> = { GET: 'r', POST: 'c', PUT: 'u', PATCH: 'u', DELETE: 'd' }
/** Response headers a script may not set: the server's own framing and security headers. */
const RESERVED_HEADERS = /^(content-length|transfer-encoding|connection|set-cookie|content-security-policy)$/i

export async function actionsModule(api: FastifyInstance, services: Services): Promise<void> {
  const { store } = services
  // The scheduler and the sandbox pool are services (compose.ts): started and closed there, not here.

  registerCollection(api, services, {
    name: ACTIONS,
    async prepare(body, op, id, req) {
      let whole: Record<string, unknown> = stripMeta(body)
      if (op === 'patch' && id !== undefined) {
        const current = await store.get(ACTIONS, id)
        if (!current) return { body }
        whole = mergePatch(stripMeta(current), stripMeta(body)) as Record<string, unknown>
      }
      const problem = actionError(whole)
      if (problem) throw badRequest(problem)
      const trigger = whole.trigger as ActionDoc['trigger']
      if (trigger.type === 'CRON') cronCheck(trigger.cron!, trigger.timezone)
      const next = { ...body }
      // The script's db calls carry the permissions of runAs: by default whoever saves it.
      if (whole.runAs === undefined) next.runAs = req.auth.user
      const needs = await checkDelegation(services, req, whole, op === 'create' ? 'all' : Object.keys(body))
      // Saved with an API token: the script may do no more than that token (actions/rights.ts). The
      // server alone sets this field, on a save by the run-as user or one that sets the action's code,
      // trigger or runAs, so a later such save through a session clears it. Someone else's edit of the
      // name or limits leaves it: it must not widen the action to its user's full rights.
      const token = req.auth.apiToken?.id
      if (op === 'create') {
        if (token) next.runAsToken = token
        else delete next.runAsToken
      } else if (needs.runAs === req.auth.user || needs.actAs) next.runAsToken = token ?? null
      else delete next.runAsToken
      if (op === 'create' && whole.enabled === undefined) next.enabled = true
      return { body: next }
    },
  })

  api.route({
    method: [...HTTP_TRIGGERS],
    url: `/${ACTIONS}/run/:id`,
    config: { access: (req) => `${ACTIONS}/run/${idParam(req)}:${LETTERS[req.method] ?? 'r'}` },
    handler: async (req, reply) => {
      const action = await loadAction(services, idParam(req))
      const type = action.trigger.type
      if (!(HTTP_TRIGGERS as readonly string[]).includes(type)) throw badRequest(ACTION_TEXT.notHttp)
      if (type !== req.method) throw new ApiError('method_not_allowed', ACTION_TEXT.wrongMethod(type))
      if (action.enabled === false) throw forbidden(ACTION_TEXT.disabled)
      const input = {
        method: req.method,
        query: req.query ?? {},
        headers: safeHeaders(req),
        body: req.body ?? null,
      }
      const outcome = await runAction(services, action, { trigger: type, input })
      if (outcome.run.status !== 'ok')
        throw new ApiError('unprocessable', outcome.run.error!.message, {
          run: outcome.run._id,
          error: outcome.run.error,
        })
      return sendScriptResponse(reply, outcome.value)
    },
  })

  api.post(
    `/${ACTIONS}/debug/:id`,
    { config: { access: (req) => `${ACTIONS}/${idParam(req)}:u` } },
    async (req) => {
      const action = await loadAction(services, idParam(req))
      const body: Body =
        req.body === undefined || req.body === null || req.body === ''
          ? {}
          : isPlainObject(req.body)
            ? req.body
            : {}
      const outcome = await runAction(services, action, {
        trigger: 'DEBUG',
        input: body.input ?? null,
        dryRun: body.commit !== true,
      })
      const { run } = outcome
      return {
        run: run._id,
        status: run.status,
        result: run.result,
        error: run.error,
        logs: run.logs,
        timing: { start: run.start, durationMs: run.durationMs },
        writes: outcome.writes,
        committed: body.commit === true,
      }
    },
  )

  historyRoutes(api, services)
}

/**
 * Delegated authority (auth/delegation.ts, the rule in shared/actions.ts actionSaveNeeds): a save that
 * makes the action run as another user, or sets the code or trigger of one that does, needs what
 * changing that account needs; an EVENT trigger needs its run-as user to be able to read what it
 * watches — the saver's own right when it runs as them, else that user's, read now. Each refusal is a
 * 403 naming the permission and the field (runAs, trigger.collection), for the console to show there.
 */
async function checkDelegation(
  services: Services,
  req: FastifyRequest,
  whole: Record<string, unknown>,
  touched: readonly string[] | 'all',
): Promise<ActionSaveNeeds> {
  const saver = req.auth.user ?? ''
  const needs = actionSaveNeeds(whole, saver, touched)
  const collection = String((whole.trigger as ActionDoc['trigger']).collection ?? '')
  if (needs.actAs) {
    await requireActAs(services, req, needs.actAs, 'runAs')
    if (touched === 'all' || touched.includes('runAs')) {
      // After the permission check, so nobody learns which user ids exist without users/{id}:u.
      if (!(await services.store.get('users', needs.actAs)))
        throw badRequest(ACTION_TEXT.runAsUnknown(needs.actAs))
    }
  }
  if (!needs.watch) return needs
  if (needs.runAs === saver) {
    for (const need of heldNeeds(needs, collection)) requireHeld(req, need.permission, need.field, need.what)
  } else if (!(await principalOf(services, needs.runAs)).allows(needs.watch))
    throw delegationRefused(ACTION_TEXT.runAsCannotRead(needs.runAs, needs.watch), 'trigger.collection', [
      needs.watch,
    ])
  return needs
}

/** A cron expression and time zone croner accepts, else a 400 with croner's reason. */
function cronCheck(cron: string, timezone: string | undefined): void {
  try {
    nextCronRun(cron, timezone, new Date())
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error)
    throw badRequest(/timezone/i.test(detail) ? ACTION_TEXT.timezoneInvalid : ACTION_TEXT.cronInvalid(detail))
  }
}

async function loadAction(services: Services, id: string): Promise<ActionDoc> {
  const doc = await services.store.get(ACTIONS, id)
  if (!doc) throw new ApiError('not_found', SERVER_TEXT.notFound)
  return doc as unknown as ActionDoc
}

/** The request headers a script sees: no credentials. */
function safeHeaders(req: FastifyRequest): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(req.headers)) {
    if (name === 'authorization' || name === 'cookie') continue
    if (typeof value === 'string') out[name] = value
  }
  return out
}

/** `{status, headers, body}` from the script; anything else is sent as the body with 200. */
function sendScriptResponse(reply: FastifyReply, value: unknown): FastifyReply {
  const shaped = isPlainObject(value) && ('status' in value || 'body' in value || 'headers' in value)
  const status =
    shaped &&
    Number.isInteger(value.status) &&
    (value.status as number) >= 200 &&
    (value.status as number) <= 599
      ? (value.status as number)
      : 200
  if (shaped && isPlainObject(value.headers)) {
    for (const [name, v] of Object.entries(value.headers)) {
      if (typeof v === 'string' && !RESERVED_HEADERS.test(name) && /^[!#$%&'*+.^_`|~0-9a-z-]+$/i.test(name))
        reply.header(name, v)
    }
  }
  const body = shaped ? value.body : value
  reply.status(status)
  if (typeof body === 'string')
    return reply
      .type(
        reply.getHeader('content-type')
          ? String(reply.getHeader('content-type'))
          : 'text/plain; charset=utf-8',
      )
      .send(body)
  return reply.send(body ?? null)
}
