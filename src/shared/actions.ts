/**
 * Actions (issue 15, docs/actions.md): the shape of an action document and its one validation, used
 * by the server on every create and patch (as the whole document the write produces).
 */
import { ACTION_TEXT } from './messages'

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
} as const

/**
 * Pruning of run records (docs/actions.md): the setting ACTION_RUNS_SETTING holds
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
