/**
 * Running an action: its script in the sandbox pool, its host calls (host.ts) checked against the
 * rights it runs with (rights.ts: its runAs user, narrowed to the API token it was saved with), and
 * every run recorded in the `action-runs` collection under an id chosen before it starts, so the
 * writes it makes can name it as their cause. Records are pruned after each run by the
 * ACTION_RUNS_SETTING setting. A debug run records its writes instead of doing them (a dry run)
 * unless asked to commit. Before a run starts its budgets are read (budget.ts): past one, the run is
 * recorded as stopped instead, and its owner told.
 */
import {
  ACTION_LIMITS,
  ACTION_RUNS_SETTING,
  type ActionDoc,
  type ActionRun,
  type ActionTriggerType,
  type RunRetention,
  runRetention,
} from '../../shared/actions'
import { ACTION_TEXT } from '../../shared/texts'
import { ApiError } from '../errors'
import type { Services } from '../services'
import { generateId } from '../store/doc'
import type { Doc } from '../store/types'
import { BUDGET_KIND, type BudgetStop, budgetOf, budgetStop, COUNTED, reportStop } from './budget'
import { type HostContext, hostCall, type RecordedWrite, type WriteBudget } from './host'
import { ActionPoolBusyError } from './pool'
import type { SandboxError, SandboxResult } from './protocol'
import { rightsOf } from './rights'

export type { RecordedWrite } from './host'

export const ACTIONS = 'actions'
export const ACTION_RUNS = 'action-runs'

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
  /** EVENT runs: the depth in a chain of runs (schedule.ts) and the run whose write caused this one. */
  depth?: number
  cause?: string
  /** The chain the run belongs to (budget.ts); a run without one starts its own. */
  chain?: string
  /** Records the run as stopped with this error instead of running the script (the loop guard). */
  stopped?: { kind: string; message: string }
}

export async function runAction(
  services: Services,
  action: ActionDoc,
  options: RunOptions,
): Promise<RunOutcome> {
  const logs: string[] = []
  const writes: RecordedWrite[] = []
  const rights = await rightsOf(services, action)
  const id = generateId()
  const depth = options.depth ?? 0
  const chain = options.chain ?? id
  let calls = 0
  const start = new Date()
  const started = performance.now()
  // A dry run writes nothing, so it spends no budget and none stops it.
  const planned =
    options.stopped || rights.refusal || options.dryRun
      ? null
      : await budgetOf(services, action, { id, chain, trigger: options.trigger })
  const budget: WriteBudget = {
    left: planned?.writesLeft ?? ACTION_LIMITS.maxChainWrites,
    done: 0,
    spent: false,
  }
  let stop: BudgetStop | null = planned?.stop ?? null
  let result: SandboxResult
  if (options.stopped) result = { ok: false, error: { ...options.stopped, kind: 'loop' } }
  else if (rights.refusal)
    result = { ok: false, error: { kind: 'permission', message: ACTION_TEXT.tokenGone } }
  else if (stop) result = { ok: false, error: { kind: BUDGET_KIND, message: stop.message } }
  else {
    const host: HostContext = {
      services,
      rights,
      run: { id, depth, chain },
      dryRun: options.dryRun ? writes : null,
      budget,
    }
    try {
      result = await services.actionPool.run(
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
            return hostCall(host, op, args)
          },
        },
      )
    } catch (error) {
      if (error instanceof ActionPoolBusyError) throw new ApiError('unavailable', ACTION_TEXT.busy)
      throw error
    }
    // A write refused by the chain's budget stops the run, even if the script caught the refusal.
    if (budget.spent) {
      stop = budgetStop('chainWrites')
      result = { ok: false, error: { kind: BUDGET_KIND, message: stop.message } }
    }
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
  if (options.trigger === 'EVENT') run.depth = depth
  if (options.cause) run.cause = options.cause
  run.chain = chain
  if (budget.done > 0) run.writes = budget.done
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
    { op: 'create', collection: ACTION_RUNS, id, body: { ...run } },
    { user: rights.user },
  )
  run._id = (stored.body as Doc)._id
  if (stop) await reportStop(services, action, { id, chain }, stop)
  await pruneRuns(services, action._id, await retentionOf(services))
  return { run, value, writes }
}

/** The run-pruning setting (ACTION_RUNS_SETTING); a malformed value (refused on save) means the defaults. */
export async function retentionOf(services: Services): Promise<RunRetention> {
  const setting = await services.store.get('settings', ACTION_RUNS_SETTING)
  return runRetention(setting?.value) ?? runRetention(null)!
}

/**
 * Deletes an action's runs older than `days`, then all but its newest `keep` — except the EVENT runs
 * of the last ACTION_LIMITS.budgetKeepMs that the budgets count, which outlive `keep` until then (so a
 * small `keep` cannot reset the count).
 */
export async function pruneRuns(
  services: Services,
  action: string,
  { keep, days }: RunRetention,
  now = Date.now(),
): Promise<number> {
  const { store } = services
  const cutoff = new Date(now - days * 86_400_000).toISOString()
  const old = await store.list(ACTION_RUNS, { filter: { action, start: { $lt: cutoff } }, limit: 1000 })
  let doomed = old.items
  const count = (await store.query(ACTION_RUNS, { operand: 'count', filter: { action } })) as number
  const excess = count - doomed.length - keep
  if (excess > 0) {
    // The newest `keep` stay, whatever they are (a run a budget stopped is shown on the action's page);
    // older ones go oldest first, but for the recent EVENT runs the budgets count (budget.ts).
    const { items: newest } = await store.list(ACTION_RUNS, {
      filter: { action, start: { $gte: cutoff } },
      sort: [['start', -1]],
      offset: keep - 1,
      limit: 1,
    })
    const boundary = newest[0]?.start
    if (typeof boundary === 'string') {
      const since = new Date(now - ACTION_LIMITS.budgetKeepMs).toISOString()
      const { items } = await store.list(ACTION_RUNS, {
        filter: {
          action,
          start: { $gte: cutoff, $lt: boundary },
          $nor: [{ trigger: 'EVENT', start: { $gte: since }, ...COUNTED }],
        },
        sort: [['start', 1]],
        limit: Math.min(excess, 1000),
      })
      doomed = doomed.concat(items)
    }
  }
  for (const doc of doomed) {
    try {
      await store.write({ op: 'delete', collection: ACTION_RUNS, id: doc._id }, { user: null })
    } catch (error) {
      // Another run pruned it first.
      if (!(error instanceof ApiError && error.code === 'not_found')) throw error
    }
  }
  return doomed.length
}

function errorText(error: SandboxError, action: ActionDoc): string {
  switch (error.kind) {
    case 'time': {
      const limit = action.timeLimitMs ?? ACTION_LIMITS.defaultTimeMs
      // 'killed': the pool's wall clock ended it (pool.ts), not QuickJS's interrupt.
      return error.message === 'killed' ? ACTION_TEXT.timeoutHard(limit) : ACTION_TEXT.timeout(limit)
    }
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
