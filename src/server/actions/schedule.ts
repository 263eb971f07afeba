/**
 * CRON and EVENT triggers (docs/operating/actions.md). Their progress is kept in the database, one document per
 * action in `_action_state` (internal, so never synced): a CRON action's next run time, an EVENT
 * action's change-log cursor. A due run or an event is claimed by a patch of that document that
 * names its revision (If-Match): of several server instances on one database only one patch
 * succeeds, and only that one runs it.
 * The claim comes before the run, so a crash between them loses that run rather than repeating it
 * (at most once); a restart or a lost claim otherwise never skips or repeats, the state being stored.
 *
 * EVENT runs carry their depth in a chain of runs (host.ts tags each write with its run's depth), and a
 * run past ACTION_LIMITS.maxEventDepth is recorded as stopped, not run: the loop guard. The chain's id
 * travels the same way, for the budgets of its volume (budget.ts).
 *
 * A change is passed to an EVENT action only when its run-as user (narrowed to its API token, rights.ts)
 * may read that document at that moment (`{collection}/{id}:r`, so an `n` on one document holds): the
 * script sees what its owner could read, nothing more (delegated authority, auth/delegation.ts). Any
 * other change moves the cursor and leaves no trace — no run, no record — since even a stopped run
 * would tell the owner that something they may not read changed, and when.
 *
 * `tickActions(services, now)` does one round; the server calls it every TICK_MS with the real clock,
 * and tests call it with their own.
 */
import { Cron } from 'croner'
import { ACTION_LIMITS, type ActionDoc, watchedCollection } from '../../shared/actions'
import { ACTION_TEXT } from '../../shared/texts'
import { ApiError } from '../errors'
import type { Services } from '../services'
import type { Change, Doc } from '../store/types'
import { changeChain } from './budget'
import { causeOf } from './host'
import { rightsOf } from './rights'
import { ACTIONS, runAction } from './run'

export const ACTION_STATE = '_action_state'
export const TICK_MS = 1000
/** Changes read per EVENT action per tick. */
const EVENT_PAGE = 50

/** The next time a cron expression fires after `after`; throws on a bad expression or time zone. */
export function nextCronRun(cron: string, timezone: string | undefined, after: Date): Date | null {
  const job = new Cron(cron, { paused: true, ...(timezone ? { timezone } : {}) })
  return job.nextRun(after)
}

export interface ActionScheduler {
  /** Ticks every TICK_MS from now on (compose.ts calls it once the server listens). */
  start(): void
  stop(): void
}

/**
 * Runs `tick` (tickActions over the server's services) every TICK_MS, one round at a time. Made and
 * started by the composition root (compose.ts), never by registering routes.
 */
export function createActionScheduler(tick: (now: Date) => Promise<void>): ActionScheduler {
  let timer: NodeJS.Timeout | undefined
  let busy = false
  return {
    start() {
      if (timer) return
      timer = setInterval(() => {
        if (busy) return
        busy = true
        tick(new Date())
          .catch(() => {})
          .finally(() => {
            busy = false
          })
      }, TICK_MS)
      timer.unref()
    },
    stop() {
      clearInterval(timer)
      timer = undefined
    },
  }
}

/** One round: every due CRON action and every new event of EVENT actions, each claimed first. */
export async function tickActions(services: Services, now: Date): Promise<void> {
  const { items } = await services.store.list(ACTIONS, {
    filter: { 'trigger.type': { $in: ['CRON', 'EVENT'] } },
    limit: 1000,
  })
  for (const doc of items) {
    const action = doc as unknown as ActionDoc & Doc
    if (action.enabled === false) continue
    if (action.trigger.type === 'CRON') await tickCron(services, action, now)
    else await tickEvent(services, action)
  }
}

/** Writes the state with its revision; false when another instance changed it first. */
async function claim(services: Services, id: string, state: Doc | null, body: Record<string, unknown>) {
  try {
    await services.store.write(
      state
        ? { op: 'patch', collection: ACTION_STATE, id, body, expectedRev: state._rev }
        : { op: 'create', collection: ACTION_STATE, id, body },
      { user: null },
    )
    return true
  } catch (error) {
    if (error instanceof ApiError && (error.code === 'conflict' || error.code === 'not_found')) return false
    throw error
  }
}

async function tickCron(services: Services, action: ActionDoc, now: Date): Promise<void> {
  const { cron = '', timezone } = action.trigger
  const state = await services.store.get(ACTION_STATE, action._id)
  let next: Date | null
  try {
    next = nextCronRun(cron, timezone, now)
  } catch {
    return
  }
  const schedule = `${cron}|${timezone ?? ''}`
  // A new or changed schedule starts from now: the next time it fires, no catching up.
  if (!state || state.schedule !== schedule || typeof state.nextRun !== 'string') {
    await claim(services, action._id, state, { schedule, nextRun: next?.toISOString() ?? null })
    return
  }
  const due = new Date(state.nextRun)
  if (due > now) return
  // Missed times (the server was down) are one run, not a burst: the next is counted from now.
  if (
    !(await claim(services, action._id, state, {
      nextRun: next?.toISOString() ?? null,
      lastRun: now.toISOString(),
    }))
  )
    return
  await runAction(services, action, {
    trigger: 'CRON',
    input: {
      schedule: { cron, timezone: timezone ?? null, scheduledFor: state.nextRun, now: now.toISOString() },
    },
  })
}

function operationOf(change: Change): 'create' | 'update' | 'delete' {
  if (change.op === 'delete') return 'delete'
  return change.rev === 1 ? 'create' : 'update'
}

async function tickEvent(services: Services, action: ActionDoc): Promise<void> {
  const { store } = services
  const watched = watchedCollection(action.trigger.collection ?? '')
  const ops = action.trigger.operations ?? []
  let state = await store.get(ACTION_STATE, action._id)
  const key = `${watched}|${ops.join(',')}`
  // A new action (or a changed trigger) starts at the head of the log: it reacts to what happens next.
  if (!state || state.watch !== key || typeof state.cursor !== 'number') {
    await claim(services, action._id, state, { watch: key, cursor: await store.headSeq() })
    return
  }
  const page = await store.changes(state.cursor, EVENT_PAGE, (collection) => collection === watched)
  for (const change of page.changes) {
    const cursor = change.seq
    if (!(await claim(services, action._id, state, { cursor }))) return
    state = await store.get(ACTION_STATE, action._id)
    if (!state) return
    const operation = operationOf(change)
    if (!ops.includes(operation)) continue
    // Read now, for this document: a right taken away stops the next change, not the next save. A
    // revoked token still runs, to record its refusal (runAction); the script does not start.
    const rights = await rightsOf(services, action)
    if (!rights.refusal && !rights.allows(`${change.collection}/${change.id}:r`)) continue
    // The loop guard: a change made by a run at depth d starts a run at d + 1; past the limit the run
    // is recorded as stopped instead, which ends a chain of actions triggering each other (or itself).
    const cause = causeOf(services, change.idempotencyKey)
    const depth = cause ? cause.depth + 1 : 1
    const max = ACTION_LIMITS.maxEventDepth
    await runAction(services, action, {
      trigger: 'EVENT',
      input: {
        event: { collection: change.collection, id: change.id, operation, seq: change.seq, doc: change.doc },
      },
      depth,
      chain: cause?.chain ?? changeChain(change),
      ...(cause ? { cause: cause.run } : {}),
      ...(depth > max && cause
        ? { stopped: { kind: 'loop', message: ACTION_TEXT.eventLoop(max, cause.run) } }
        : {}),
    })
  }
  // Changes the filter dropped still move the cursor, so they are not read again.
  if (page.changes.length === 0 && page.cursor > (state.cursor as number))
    await claim(services, action._id, state, { cursor: page.cursor })
}
