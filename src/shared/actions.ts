/**
 * Actions (issue 15, docs/operating/actions.md): the shape of an action document and its one validation, used
 * by the server on every create and patch (as the whole document the write produces).
 */
import { ACTION_TEXT } from './texts'

export const ACTION_TRIGGERS = ['CRON', 'EVENT', 'DELETE', 'GET', 'PATCH', 'POST', 'PUT'] as const
export type ActionTriggerType = (typeof ACTION_TRIGGERS)[number]
export const HTTP_TRIGGERS = ['DELETE', 'GET', 'PATCH', 'POST', 'PUT'] as const
export const EVENT_OPERATIONS = ['create', 'update', 'delete'] as const

/** Sandbox limits: an action may ask for less, never for more. */
export const ACTION_LIMITS = {
  defaultTimeMs: 1000,
  maxTimeMs: 10_000,
  minTimeMs: 10,
  defaultMemoryBytes: 32 * 1024 * 1024,
  maxMemoryBytes: 64 * 1024 * 1024,
  minMemoryBytes: 1024 * 1024,
  /** QuickJS's own stack, so deep recursion is a RangeError, not a crashed thread. */
  maxStackBytes: 512 * 1024,
  /** The JSON of a script's result. */
  maxResultBytes: 1024 * 1024,
  /** log() lines kept per run, and characters per line. */
  maxLogLines: 200,
  maxLogChars: 2000,
  /** Source code of one action. */
  maxCodeChars: 100_000,
  /** db calls in one run. */
  maxDbCalls: 1000,
  /** EVENT runs caused by writes of EVENT runs, chained: the run past this depth is stopped (a loop). */
  maxEventDepth: 8,
  /**
   * The budget per causing change (server/actions/budget.ts): runs in one chain, all runs descending
   * from one write no action made (or from one HTTP, CRON or debug run). The depth limit alone lets a
   * run that writes 3 documents grow to 3^8 = 6,561 runs; 100 is far more than any cascade one change
   * is meant to start (a few actions, each with a few follow-ups), and a runaway stops within seconds.
   */
  maxChainRuns: 100,
  /**
   * Data writes by the runs of one chain. Five times maxDbCalls, so one run (even the chain's first,
   * an import) never meets it alone, while 100 runs writing 1,000 documents each cannot happen.
   */
  maxChainWrites: 5000,
  /**
   * EVENT runs of one action started in one minute (counted over the last 60 s). The backstop for
   * loops that no chain sees (a script that calls the API over fetch starts a fresh chain each time):
   * 10 a second, sustained, is more than an action reacting to people's changes meets outside a bulk
   * import, and a fifth of what the scheduler could start (EVENT_PAGE changes a tick, once a second).
   */
  maxEventRunsPerMinute: 600,
  /**
   * How long run records counted by the budgets outlive pruning (ACTION_RUNS_SETTING): a `keep` of 1
   * must not erase the count. Ten times the minute window, and far longer than any chain lasts.
   */
  budgetKeepMs: 10 * 60_000,
} as const

/** The store collection an EVENT trigger watches: a Database collection by its name, or a store name. */
export function watchedCollection(name: string): string {
  return name.includes('/') ? name : `data/${name}`
}

/**
 * What a save of an action asks of its saver beyond `actions/{id}:u` (delegated authority, docs/operating/actions.md
 * "Permissions"), decided from the whole action the write leaves and the fields it changes (`touched`,
 * 'all' for a create); the server enforces it and the console checks it before saving.
 * - `actAs`: the action runs as another user and the save sets its code, trigger or runAs — allowed only
 *   to whoever may change that account (auth/delegation.ts requireActAs: `users/{runAs}:u` and every
 *   permission they hold). Renaming, describing, enabling or limits lend nothing and need nothing.
 * - `watch`: an EVENT trigger set by this save, and the `{collection}:r` the run-as user must hold, as
 *   the script reads every change it is passed.
 */
export interface ActionSaveNeeds {
  runAs: string
  actAs: string | null
  watch: string | null
}

const DELEGATED_FIELDS = ['code', 'trigger', 'runAs'] as const

export function actionSaveNeeds(
  whole: Record<string, unknown>,
  saver: string,
  touched: readonly string[] | 'all',
): ActionSaveNeeds {
  const runAs = typeof whole.runAs === 'string' && whole.runAs ? whole.runAs : saver
  const changes = (field: string) => touched === 'all' || touched.includes(field)
  const delegated = DELEGATED_FIELDS.some(changes)
  const trigger = isObject(whole.trigger) ? whole.trigger : {}
  const event = trigger.type === 'EVENT' && typeof trigger.collection === 'string' && !!trigger.collection
  return {
    runAs,
    actAs: runAs !== saver && delegated ? runAs : null,
    watch:
      event && (changes('trigger') || changes('runAs'))
        ? `${watchedCollection(trigger.collection as string)}:r`
        : null,
  }
}

/** A right the saver's own permissions must hold for a save, and the field it concerns. */
export interface HeldNeed {
  permission: string
  field: 'runAs' | 'trigger.collection'
  /** Completes "You cannot …" (DELEGATION_TEXT.needs). */
  what: string
}

/**
 * The part of actionSaveNeeds the saver's own permissions answer (the console's check before saving;
 * the server refuses the same with the same words). Acting as another user also needs every right
 * they hold, and their own read of the watched collection: only the server knows those.
 */
export function heldNeeds(needs: ActionSaveNeeds, collection: string): HeldNeed[] {
  if (needs.actAs)
    return [
      { permission: `users/${needs.actAs}:u`, field: 'runAs', what: ACTION_TEXT.actAsWhat(needs.actAs) },
    ]
  if (needs.watch)
    return [{ permission: needs.watch, field: 'trigger.collection', what: ACTION_TEXT.watchWhat(collection) }]
  return []
}

/**
 * Pruning of run records (docs/operating/actions.md): the setting ACTION_RUNS_SETTING holds
 * `{keep?: runs per action, days?: age}`; what it leaves out falls back to these defaults.
 */
export const ACTION_RUNS_SETTING = 'action_runs'
export const ACTION_RUNS_KEEP_DEFAULT = 500
export const ACTION_RUNS_DAYS_DEFAULT = 30
export const ACTION_RUNS_KEEP_MAX = 100_000
export const ACTION_RUNS_DAYS_MAX = 3650

export interface RunRetention {
  keep: number
  days: number
}

/** The retention a stored setting value asks for; null when the value is malformed. */
export function runRetention(value: unknown): RunRetention | null {
  if (value === undefined || value === null)
    return { keep: ACTION_RUNS_KEEP_DEFAULT, days: ACTION_RUNS_DAYS_DEFAULT }
  if (!isObject(value)) return null
  const keep = value.keep ?? ACTION_RUNS_KEEP_DEFAULT
  const days = value.days ?? ACTION_RUNS_DAYS_DEFAULT
  if (!intIn(keep, 1, ACTION_RUNS_KEEP_MAX) || !intIn(days, 1, ACTION_RUNS_DAYS_MAX)) return null
  return { keep: keep as number, days: days as number }
}

/** Run history queries (GET /api/actions/{id}/runs, /api/action-runs). */
export const HISTORY_LIMITS = { defaultLimit: 100, maxLimit: 500 } as const
/** Websocket topic of the live tail: each finished run, to sockets that may read its action. */
export const ACTION_RUNS_TOPIC = 'actions/runs'

export interface ActionTrigger {
  type: ActionTriggerType
  cron?: string
  timezone?: string
  collection?: string
  operations?: Array<(typeof EVENT_OPERATIONS)[number]>
}

export interface ActionDoc {
  _id: string
  name: string
  description?: string
  enabled: boolean
  trigger: ActionTrigger
  code: string
  timeLimitMs?: number
  memoryLimitBytes?: number
  /** The user whose permissions the script's `db` calls are checked against. */
  runAs?: string
  /**
   * Set by the server: the API token the action was last saved with. The script then runs with no more
   * than that token's scope (server/actions/rights.ts); a save through a login session clears it.
   */
  runAsToken?: string
}

/** What an HTTP action's script returns, as the response. */
export interface ActionResponse {
  status?: number
  headers?: Record<string, string>
  body?: unknown
}

export const ACTION_RUN_STATUSES = ['ok', 'error'] as const
export type RunStatus = (typeof ACTION_RUN_STATUSES)[number]

/** One record of the `action-runs` collection. */
export interface ActionRun {
  action: string
  trigger: ActionTriggerType | 'DEBUG'
  start: string
  durationMs: number
  status: RunStatus
  logs: string[]
  result?: unknown
  error?: { kind: string; message: string; line?: number }
  /** EVENT runs: how many EVENT runs chained before this one (1 = caused by a write of no action). */
  depth?: number
  /** EVENT runs caused by another run's write: that run's id. */
  cause?: string
  /** The chain the run belongs to (server/actions/budget.ts), counted by the budget per causing change. */
  chain?: string
  /** Data writes the run made, when any (the chain's write budget adds them up). */
  writes?: number
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

function intIn(v: unknown, min: number, max: number): boolean {
  return typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max
}

/** The first problem of a whole action document, or null when it is valid. */
export function actionError(doc: Record<string, unknown>): string | null {
  if (typeof doc.name !== 'string' || !doc.name.trim() || doc.name.length > 200)
    return ACTION_TEXT.nameInvalid
  if (doc.description !== undefined && (typeof doc.description !== 'string' || doc.description.length > 2000))
    return ACTION_TEXT.descriptionInvalid
  if (doc.enabled !== undefined && typeof doc.enabled !== 'boolean') return ACTION_TEXT.enabledInvalid
  if (typeof doc.code !== 'string' || doc.code.length > ACTION_LIMITS.maxCodeChars)
    return ACTION_TEXT.codeInvalid
  if (
    doc.timeLimitMs !== undefined &&
    !intIn(doc.timeLimitMs, ACTION_LIMITS.minTimeMs, ACTION_LIMITS.maxTimeMs)
  )
    return ACTION_TEXT.timeLimitInvalid
  if (
    doc.memoryLimitBytes !== undefined &&
    !intIn(doc.memoryLimitBytes, ACTION_LIMITS.minMemoryBytes, ACTION_LIMITS.maxMemoryBytes)
  )
    return ACTION_TEXT.memoryLimitInvalid
  if (doc.runAs !== undefined && (typeof doc.runAs !== 'string' || !doc.runAs))
    return ACTION_TEXT.runAsInvalid
  return triggerError(doc.trigger)
}

function triggerError(trigger: unknown): string | null {
  if (!isObject(trigger) || !ACTION_TRIGGERS.includes(trigger.type as ActionTriggerType))
    return ACTION_TEXT.triggerInvalid
  if (trigger.type === 'CRON') {
    if (typeof trigger.cron !== 'string' || !trigger.cron.trim()) return ACTION_TEXT.cronMissing
    if (trigger.timezone !== undefined && typeof trigger.timezone !== 'string')
      return ACTION_TEXT.timezoneInvalid
  }
  if (trigger.type === 'EVENT') {
    if (typeof trigger.collection !== 'string' || !trigger.collection)
      return ACTION_TEXT.eventCollectionMissing
    const ops = trigger.operations
    if (
      !Array.isArray(ops) ||
      ops.length === 0 ||
      !ops.every((op) => EVENT_OPERATIONS.includes(op as (typeof EVENT_OPERATIONS)[number]))
    )
      return ACTION_TEXT.eventOperationsInvalid
  }
  return null
}
