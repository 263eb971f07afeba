/**
 * Says on the action's page when its newest run was stopped by a budget (server/actions/budget.ts): the
 * changes it would have acted on were not, and the owner should know without opening the history.
 * The run's own message names the budget and its limit; Server Logs holds the same line.
 */
import { ACTIONS_CONSOLE_TEXT } from '../../../shared/texts'
import type { RunDoc } from './action-data'

export function BudgetNotice({ runs }: { runs: RunDoc[] | undefined }) {
  const newest = runs?.[0]
  if (newest?.error?.kind !== 'budget') return null
  return (
    <p className="notice notice-warning" role="status" data-testid="budget-notice">
      {ACTIONS_CONSOLE_TEXT.budgetNotice} {newest.error.message}
    </p>
  )
}
