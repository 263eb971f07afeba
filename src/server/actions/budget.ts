/**
 * The budgets of action runs (docs/operating/actions.md "Budgets"). The loop guard (schedule.ts) bounds how deep
 * a chain of EVENT runs goes, not how wide: a run that writes three documents its own action watches
 * grows to thousands of runs within the depth limit. So two budgets bound the volume as well:
 *
 * - **Per causing change**: a chain is every run descending from one write no action made (a person's
 *   or an API client's), or from one HTTP, CRON or debug run. Its id travels in the cause tag of each
 *   write (host.ts) and is kept on each run record (`chain`). Past ACTION_LIMITS.maxChainRuns runs, or
 *   maxChainWrites data writes, the chain's next run is stopped; a run that meets the write budget
 *   midway has its next write refused and is recorded as stopped.
 * - **Per action per minute**: past maxEventRunsPerMinute EVENT runs of one action in the last 60 s,
 *   the next is stopped — the backstop for loops no chain sees (a script calling the API over fetch).
 *
 * Both are counted in the store from the run records, so every instance on one database counts the
 * same runs and a restart forgets nothing; runs a budget stopped before they started are not counted,
 * and pruning spares counted EVENT runs for ACTION_LIMITS.budgetKeepMs (run.ts pruneRuns). The count
 * is read when a run starts and a record is written when it ends, so runs in flight at that moment
 * (one per action per instance, as each tick runs an action's changes in turn) can go past a budget:
 * a bounded overshoot, chosen over a reservation that would cost a conditional write per run.
 *
 * A stopped run is recorded with error kind 'budget' and a message naming the budget and its limit
 * (the action's page shows it), and the first stop of a chain, or of an action in a minute, writes one
 * line to Server Logs: one, so an action that watches logs/server cannot feed itself on its notices.
 */
import { ACTION_LIMITS, type ActionDoc, type ActionRun } from '../../shared/actions'
import { ACTION_TEXT } from '../../shared/texts'
import type { Services } from '../services'
import type { Change, Filter } from '../store/types'

export const BUDGET_KIND = 'budget' as const
const MINUTE_MS = 60_000
/**
 * The run records a budget counts: all but those it stopped before they started (one stopped midway
 * by the write budget did run, and its writes count).
 */
export const COUNTED: Filter = { $or: [{ 'error.kind': { $ne: BUDGET_KIND } }, { writes: { $gt: 0 } }] }

export type BudgetName = 'chainRuns' | 'chainWrites' | 'minute'

export interface BudgetStop {
  budget: BudgetName
  limit: number
  message: string
}

export function budgetStop(budget: BudgetName): BudgetStop {
  switch (budget) {
    case 'chainRuns':
      return {
        budget,
        limit: ACTION_LIMITS.maxChainRuns,
        message: ACTION_TEXT.budgetChainRuns(ACTION_LIMITS.maxChainRuns),
      }
    case 'chainWrites':
      return {
        budget,
        limit: ACTION_LIMITS.maxChainWrites,
        message: ACTION_TEXT.budgetChainWrites(ACTION_LIMITS.maxChainWrites),
      }
    case 'minute':
      return {
        budget,
        limit: ACTION_LIMITS.maxEventRunsPerMinute,
        message: ACTION_TEXT.budgetMinute(ACTION_LIMITS.maxEventRunsPerMinute),
      }
  }
}

/**
 * The chain a write no action made starts: one per change-log row. The seq alone repeats after an
 * epoch reset (a restore), so the commit time goes with it.
 */
export function changeChain(change: Pick<Change, 'seq' | 'time'>): string {
  const time = Date.parse(change.time)
  return `c${change.seq}t${Number.isFinite(time) ? time.toString(36) : '0'}`
}

export interface RunBudget {
  stop: BudgetStop | null
  /** Data writes the run may still make before the chain's write budget is spent. */
  writesLeft: number
}

/** Whether a budget stops a run about to start, and what is left of its chain's writes. */
export async function budgetOf(
  services: Services,
  action: Pick<ActionDoc, '_id'>,
  run: { id: string; chain: string; trigger: ActionRun['trigger'] },
  now = Date.now(),
): Promise<RunBudget> {
  const { store } = services
  let writesLeft: number = ACTION_LIMITS.maxChainWrites
  // The chain's first run (HTTP, CRON, debug) has no runs before it to count.
  if (run.chain !== run.id) {
    const { items, total } = await store.list('action-runs', {
      filter: { chain: run.chain, ...COUNTED },
      limit: ACTION_LIMITS.maxChainRuns,
    })
    if (total >= ACTION_LIMITS.maxChainRuns) return { stop: budgetStop('chainRuns'), writesLeft: 0 }
    const writes = items.reduce((n, doc) => n + (typeof doc.writes === 'number' ? doc.writes : 0), 0)
    if (writes >= ACTION_LIMITS.maxChainWrites) return { stop: budgetStop('chainWrites'), writesLeft: 0 }
    writesLeft -= writes
  }
  if (run.trigger === 'EVENT') {
    const since = new Date(now - MINUTE_MS).toISOString()
    const count = (await store.query('action-runs', {
      operand: 'count',
      filter: { action: action._id, trigger: 'EVENT', start: { $gte: since }, ...COUNTED },
    })) as number
    if (count >= ACTION_LIMITS.maxEventRunsPerMinute) return { stop: budgetStop('minute'), writesLeft }
  }
  return { stop: null, writesLeft }
}

/**
 * Tells the owner of a run a budget stopped (already recorded): one WARN line in Server Logs for the
 * first such run of the action in its chain (chain budgets) or in the last minute (the minute budget).
 */
export async function reportStop(
  services: Services,
  action: Pick<ActionDoc, '_id' | 'runAs'>,
  run: { id: string; chain: string },
  stop: BudgetStop,
  now = Date.now(),
): Promise<void> {
  const filter: Filter =
    stop.budget === 'minute'
      ? {
          action: action._id,
          'error.message': stop.message,
          start: { $gte: new Date(now - MINUTE_MS).toISOString() },
        }
      : { action: action._id, chain: run.chain, 'error.kind': BUDGET_KIND }
  const stopped = (await services.store.query('action-runs', { operand: 'count', filter })) as number
  if (stopped > 1) return
  services.serverLog('WARN', ACTION_TEXT.budgetLog(action._id, stop.message), {
    action: action._id,
    owner: action.runAs ?? null,
    run: run.id,
    chain: run.chain,
    budget: stop.budget,
    limit: stop.limit,
  })
}
