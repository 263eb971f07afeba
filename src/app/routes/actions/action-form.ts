/**
 * The edit model of one action (pure, no React): the form the editor holds, built from a stored
 * document, back into the whole document (validated with the server's own actionError) and into the
 * merge patch the sync engine writes. Limits are edited as text so a half-typed number is not lost.
 */
import {
  ACTION_LIMITS,
  type ActionTriggerType,
  actionError,
  actionSaveNeeds,
  EVENT_OPERATIONS,
  HTTP_TRIGGERS,
  heldNeeds,
} from '../../../shared/actions'
import { diffPatch } from '../../../shared/merge-patch'
import { ACTIONS_CONSOLE_TEXT, DELEGATION_TEXT } from '../../../shared/texts'
import { cronPreview } from './cron'

export type Operation = (typeof EVENT_OPERATIONS)[number]
const MB = 1024 * 1024

export interface ActionForm {
  name: string
  description: string
  enabled: boolean
  type: ActionTriggerType
  cron: string
  timezone: string
  collection: string
  operations: Operation[]
  code: string
  /** Milliseconds, as typed; empty means the server's default. */
  timeLimitMs: string
  /** Megabytes, as typed; empty means the server's default. */
  memoryMb: string
  /** A user id; empty means "whoever saves it" (the server fills it in). */
  runAs: string
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '')

export function formOf(doc: Record<string, unknown> | undefined): ActionForm {
  const trigger = (doc?.trigger ?? {}) as Record<string, unknown>
  return {
    name: str(doc?.name),
    description: str(doc?.description),
    enabled: doc?.enabled !== false,
    type: (str(trigger.type) || 'POST') as ActionTriggerType,
    cron: str(trigger.cron),
    timezone: str(trigger.timezone),
    collection: str(trigger.collection),
    operations: Array.isArray(trigger.operations) ? (trigger.operations as Operation[]) : [],
    code: str(doc?.code),
    timeLimitMs: typeof doc?.timeLimitMs === 'number' ? String(doc.timeLimitMs) : '',
    memoryMb: typeof doc?.memoryLimitBytes === 'number' ? String(doc.memoryLimitBytes / MB) : '',
    runAs: str(doc?.runAs),
  }
}

/** A typed number, or the text itself so actionError reports it (an empty field is left out). */
const numberOr = (text: string, scale = 1): number | string | undefined => {
  if (!text.trim()) return undefined
  const n = Number(text)
  return Number.isFinite(n) ? Math.round(n * scale) : text
}

/** The whole action the form describes (what a create sends, and what validation looks at). */
export function draftOf(form: ActionForm): Record<string, unknown> {
  const trigger: Record<string, unknown> = { type: form.type }
  if (form.type === 'CRON') {
    trigger.cron = form.cron.trim()
    if (form.timezone.trim()) trigger.timezone = form.timezone.trim()
  }
  if (form.type === 'EVENT') {
    trigger.collection = form.collection.trim()
    trigger.operations = EVENT_OPERATIONS.filter((op) => form.operations.includes(op))
  }
  const draft: Record<string, unknown> = {
    name: form.name.trim(),
    enabled: form.enabled,
    trigger,
    code: form.code,
  }
  if (form.description) draft.description = form.description
  const time = numberOr(form.timeLimitMs)
  if (time !== undefined) draft.timeLimitMs = time
  const memory = numberOr(form.memoryMb, MB)
  if (memory !== undefined) draft.memoryLimitBytes = memory
  if (form.runAs.trim()) draft.runAs = form.runAs.trim()
  return draft
}

/**
 * The merge patch from the version the edit started from to the form: only what changed. The trigger
 * is replaced whole (null first), so switching CRON → EVENT leaves no stale cron field behind.
 */
export function patchOf(base: ActionForm, form: ActionForm): Record<string, unknown> {
  const before = draftOf(base)
  const after = draftOf(form)
  const { trigger: t1, ...restBefore } = before
  const { trigger: t2, ...restAfter } = after
  const patch = diffPatch(restBefore, restAfter)
  if (JSON.stringify(t1) !== JSON.stringify(t2)) {
    const cleared = Object.fromEntries(Object.keys(t1 as object).map((k) => [k, null]))
    patch.trigger = { ...cleared, ...(t2 as object) }
  }
  return patch
}

/** Problems by field, for the messages next to them; `form` is the first one the server would give. */
export function problemsOf(form: ActionForm): Partial<Record<keyof ActionForm | 'form', string>> {
  const problems: Partial<Record<keyof ActionForm | 'form', string>> = {}
  if (form.type === 'CRON' && form.cron.trim()) {
    const preview = cronPreview(form.cron, form.timezone)
    if (!preview.ok) problems[preview.field] = preview.message
  }
  if (form.type === 'EVENT' && form.operations.length === 0)
    problems.operations = ACTIONS_CONSOLE_TEXT.operationsMissing
  const first = actionError(draftOf(form))
  if (first) problems.form = first
  return problems
}

/**
 * The rights the edit would lend that the session lacks, by the field they concern (the server's rule,
 * shared/actions.ts actionSaveNeeds): shown beside the field before saving, which stays disabled. Acting
 * as another user also needs every right they hold, which only the server knows; its refusal of the
 * queued save is shown at the same field (use-save-refusal.ts).
 */
export function lackingOf(
  base: ActionForm,
  form: ActionForm,
  saver: string,
  can: (permission: string) => boolean,
): Partial<Record<'runAs' | 'collection', string>> {
  const touched = Object.keys(patchOf(base, form))
  if (touched.length === 0) return {}
  const needs = actionSaveNeeds(draftOf(form), saver, touched)
  const out: Partial<Record<'runAs' | 'collection', string>> = {}
  for (const need of heldNeeds(needs, form.collection.trim())) {
    if (can(need.permission)) continue
    out[need.field === 'runAs' ? 'runAs' : 'collection'] = DELEGATION_TEXT.needs(need.what, need.permission)
  }
  return out
}

/** The fields of the editor a server refusal may name (the rest are shown near Save). */
export const REFUSAL_FIELDS = ['runAs', 'trigger.collection'] as const

export const isHttp = (type: string): boolean => (HTTP_TRIGGERS as readonly string[]).includes(type)

/** A new action: a small valid starting point that shows the host API, so the first save passes. */
export function starterOf(name: string, type: ActionTriggerType): Record<string, unknown> {
  const trigger: Record<string, unknown> = { type }
  if (type === 'CRON') trigger.cron = '0 * * * *'
  if (type === 'EVENT') Object.assign(trigger, { collection: 'orders', operations: ['create'] })
  return {
    name,
    enabled: true,
    trigger,
    code: "log('input', input)\nreturn { ok: true }\n",
    timeLimitMs: ACTION_LIMITS.defaultTimeMs,
  }
}
