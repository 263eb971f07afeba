/**
 * Running an action: its script in the sandbox pool, its `db` calls checked against the permissions of
 * the user it runs as (the same grants and paths as /api/data, so `data/contacts:r` lets a script read
 * contacts and nothing else), and every run recorded in the `action-runs` collection.
 * A debug run records its writes instead of doing them (a dry run) unless asked to commit.
 */
import { ACTION_LIMITS, type ActionDoc, type ActionRun, type ActionTriggerType } from '../../shared/actions'
import { isValidCollectionName, isValidId } from '../../shared/ids'
import { isPlainObject } from '../../shared/merge-patch'
import { ACTION_TEXT } from '../../shared/messages'
import { decide, type Grant, type Method, parsePermissions } from '../../shared/permissions'
import { ApiError } from '../errors'
import type { Services } from '../services'
import type { Doc } from '../store/types'
import { guardedFetch } from './fetch'
import { ActionPool, ActionPoolBusyError } from './pool'
import type { DbOp, SandboxError } from './protocol'

export const ACTIONS = 'actions'
export const ACTION_RUNS = 'action-runs'
const DATA_PREFIX = 'data/'

const pools = new WeakMap<Services, ActionPool>()

export function actionPool(services: Services): ActionPool {
  let pool = pools.get(services)
  if (!pool) {
    pool = new ActionPool()
    pools.set(services, pool)
  }
  return pool
}

export async function closeActionPool(services: Services): Promise<void> {
  await pools.get(services)?.close()
  pools.delete(services)
}

/** A write a dry run did not do. */
export interface RecordedWrite {
  op: 'create' | 'update' | 'delete'
  collection: string
  id?: string
  body?: unknown
}

export interface RunOutcome {
  run: ActionRun & { _id?: string }
  /** The script's return value, parsed, when it succeeded. */
  value?: unknown
  writes: RecordedWrite[]
}

export interface RunOptions {
  trigger: ActionTriggerType | 'DEBUG'
  input: unknown
  /** Debug: writes are recorded, not done, unless commit is true. */
  dryRun?: boolean
}

export async function runAction(
  services: Services,
  action: ActionDoc,
  options: RunOptions,
): Promise<RunOutcome> {
  const logs: string[] = []
  const writes: RecordedWrite[] = []
  const runAs = action.runAs ?? null
  const grants = runAs ? parsePermissions(await services.permissionsOf(runAs)) : []
  let calls = 0
  const start = new Date()
  const started = performance.now()
  let result: Awaited<ReturnType<ActionPool['run']>>
  try {
    result = await actionPool(services).run(
      {
        code: action.code,
        input: JSON.stringify(options.input ?? null),
        timeLimitMs: action.timeLimitMs ?? ACTION_LIMITS.defaultTimeMs,
        memoryLimitBytes: action.memoryLimitBytes ?? ACTION_LIMITS.defaultMemoryBytes,
      },
      {
        log(line) {
          if (logs.length < ACTION_LIMITS.maxLogLines) logs.push(line.slice(0, ACTION_LIMITS.maxLogChars))
        },
        async db(op, args) {
          if (++calls > ACTION_LIMITS.maxDbCalls) throw new Error(ACTION_TEXT.tooManyDbCalls)
          if (op === 'fetch') return guardedFetch(args[0], args[1])
          return dbCall(services, grants, runAs, op, args, options.dryRun ? writes : null)
        },
      },
    )
  } catch (error) {
    if (error instanceof ActionPoolBusyError) throw new ApiError('unavailable', ACTION_TEXT.busy)
    throw error
  }
  const durationMs = Math.round((performance.now() - started) * 100) / 100
  const run: ActionRun & { _id?: string } = {
    action: action._id,
    trigger: options.trigger,
    start: start.toISOString(),
    durationMs,
    status: result.ok ? 'ok' : 'error',
    logs,
  }
  let value: unknown
  if (result.ok) {
    value = JSON.parse(result.result)
    run.result = value
  } else {
    run.error = { kind: result.error.kind, message: errorText(result.error, action), line: result.error.line }
    if (run.error.line === undefined) delete run.error.line
  }
  const stored = await services.store.write(
    // A huge result is kept in the record only up to the result limit, which the sandbox enforced.
    { op: 'create', collection: ACTION_RUNS, body: { ...run } },
    { user: runAs },
  )
  run._id = (stored.body as Doc)._id
  await pruneRuns(services, action._id, ACTION_LIMITS.keepRuns)
  return { run, value, writes }
}

/** Deletes all but the newest `keep` run records of an action. */
export async function pruneRuns(services: Services, action: string, keep: number): Promise<number> {
  const { store } = services
  const count = (await store.query(ACTION_RUNS, { operand: 'count', filter: { action } })) as number
  if (count <= keep) return 0
  const { items } = await store.list(ACTION_RUNS, {
    filter: { action },
    sort: [['start', 1]],
    limit: Math.min(count - keep, 1000),
  })
  for (const doc of items) {
    try {
      await store.write({ op: 'delete', collection: ACTION_RUNS, id: doc._id }, { user: null })
    } catch (error) {
      // Another run pruned it first.
      if (!(error instanceof ApiError && error.code === 'not_found')) throw error
    }
  }
  return items.length
}

function errorText(error: SandboxError, action: ActionDoc): string {
  switch (error.kind) {
    case 'time':
      return ACTION_TEXT.timeout(action.timeLimitMs ?? ACTION_LIMITS.defaultTimeMs)
    case 'killed':
      return ACTION_TEXT.killed
    case 'memory':
      return ACTION_TEXT.memory
    case 'stack':
      return ACTION_TEXT.stack
    case 'result':
      return /JSON/.test(error.message)
        ? ACTION_TEXT.resultNotJson
        : ACTION_TEXT.resultTooLarge(ACTION_LIMITS.maxResultBytes)
    default:
      return error.line !== undefined ? `${error.message} (line ${error.line})` : error.message
  }
}

const LETTER: Record<DbOp, Method> = { get: 'r', list: 'r', create: 'c', update: 'u', delete: 'd' }

/** One db call of a script, with the checks /api/data makes for the same request. */
async function dbCall(
  services: Services,
  grants: readonly Grant[],
  user: string | null,
  op: DbOp,
  args: unknown[],
  dryRun: RecordedWrite[] | null,
): Promise<unknown> {
  const [name, second, third] = args
  if (!isValidCollectionName(name)) throw new Error('db: invalid collection name')
  const collection = `${DATA_PREFIX}${name}`
  const needsId = op === 'get' || op === 'update' || op === 'delete'
  if (needsId && !isValidId(second)) throw new Error('db: invalid id')
  let id = needsId ? (second as string) : undefined
  if (op === 'create' && isPlainObject(second) && second._id !== undefined) {
    if (!isValidId(second._id)) throw new Error('db: invalid id')
    id = second._id
  }
  const path = id !== undefined && op !== 'create' ? `${collection}/${id}` : collection
  if (!decide(grants, path, LETTER[op]).allowed)
    throw new Error(ACTION_TEXT.dbForbidden(`${path}:${LETTER[op]}`))
  const { store } = services
  switch (op) {
    case 'get':
      return store.get(collection, id!)
    case 'list': {
      const query = isPlainObject(second) ? second : {}
      const limit = Math.min(typeof query.limit === 'number' ? query.limit : 100, 1000)
      const filter = isPlainObject(query.filter) ? query.filter : undefined
      const { items } = await store.list(collection, { filter, limit })
      return items.filter((doc) => decide(grants, `${collection}/${doc._id}`, 'r').allowed)
    }
    case 'create':
    case 'update': {
      const body = op === 'create' ? second : third
      if (!isPlainObject(body)) throw new Error('db: the document must be an object')
      if (dryRun) {
        dryRun.push({ op, collection: name, id, body })
        return { ...body, _id: id ?? null, dryRun: true }
      }
      const write =
        op === 'create'
          ? ({ op: 'create', collection, id, body } as const)
          : ({ op: 'patch', collection, id: id!, body } as const)
      return (await store.write(write, { user })).body
    }
    case 'delete':
      if (dryRun) {
        dryRun.push({ op, collection: name, id })
        return { ok: true, _id: id, dryRun: true }
      }
      return (await store.write({ op: 'delete', collection, id: id! }, { user })).body
  }
}
