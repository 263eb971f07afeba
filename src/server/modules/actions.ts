/**
 * Actions (issue 15, docs/actions.md): the `actions` collection at /api/actions with the shared
 * collection routes (permission key `actions`, SPEC §6), validated as the whole document a write
 * produces, and the routes that run one in the sandbox:
 *   GET|POST|PUT|PATCH|DELETE /api/actions/run/{id}  an HTTP-triggered action; the method must be its
 *       trigger's; needs `actions/run/{id}:{letter of the method}`; answers with {status, headers, body}
 *   POST /api/actions/debug/{id} {input?, commit?}  runs any action with an input (needs actions/{id}:u);
 *       answers with result, logs, timing and the writes, which are not done unless commit is true
 *   GET  /api/actions/{id}/runs, /api/action-runs  the run records, with filters (actions/history.ts)
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { type ActionDoc, actionError, HTTP_TRIGGERS } from '../../shared/actions'
import { isPlainObject, mergePatch, stripMeta } from '../../shared/merge-patch'
import { ACTION_TEXT, SERVER_TEXT } from '../../shared/messages'
import { historyRoutes } from '../actions/history'
import { ACTIONS, closeActionPool, runAction } from '../actions/run'
import { nextCronRun, startActionScheduler, stopActionScheduler } from '../actions/schedule'
import { allowed } from '../auth/guard'
import { ApiError, badRequest, forbidden } from '../errors'
import type { Services } from '../services'
import type { Body } from '../store/types'
import { idParam, registerCollection } from './collections'

const LETTERS: Record<string, string> = { GET: 'r', POST: 'c', PUT: 'u', PATCH: 'u', DELETE: 'd' }
/** Response headers a script may not set: the server's own framing and security headers. */
const RESERVED_HEADERS = /^(content-length|transfer-encoding|connection|set-cookie|content-security-policy)$/i

export async function actionsModule(api: FastifyInstance, services: Services): Promise<void> {
  const { store } = services
  startActionScheduler(services)
  api.addHook('onClose', async () => {
    stopActionScheduler(services)
    await closeActionPool(services)
  })

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
      // The script's db calls carry the permissions of runAs: by default whoever saves it. Any save
      // of an action that runs as someone else (naming them, or editing their action's code or
      // trigger) needs users:u, else an editor could borrow that user's rights with their own code.
      if (whole.runAs === undefined) next.runAs = req.auth.user
      else if (whole.runAs !== req.auth.user) {
        if (!allowed(req, 'users:u')) throw forbidden(ACTION_TEXT.runAsForbidden)
        if (body.runAs !== undefined && !(await store.get('users', whole.runAs as string)))
          throw badRequest(ACTION_TEXT.runAsUnknown(String(whole.runAs)))
      }
      // Saved with an API token: the script may do no more than that token (actions/rights.ts). The
      // server alone sets this field, on every save, so a later save through a session clears it.
      const token = req.auth.apiToken?.id
      if (token) next.runAsToken = token
      else if (op === 'create') delete next.runAsToken
      else next.runAsToken = null
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
