/**
 * The run history of one action, newest first, filtered by status and trigger. Read from the mirror,
 * so a run recorded on the server (a request, the schedule, a change, a debug) appears here as the
 * sync stream delivers it: the live tail. Each entry opens to its output, logs and error. The runs are
 * read by the action's page (action-data.ts useRuns), which also says when a budget stopped them.
 */
import { useMemo, useState } from 'react'
import { ACTION_TRIGGERS, type RunStatus as RunStatusValue } from '../../../shared/actions'
import { countOfTotal } from '../../../shared/plural'
import { ACTIONS_CONSOLE_TEXT } from '../../../shared/texts'
import { FilterSelect } from '../../components/FilterSelect'
import type { RunDoc } from './action-data'
import { RunDetails, RunStatus } from './RunDetails'

const PAGE = 50
const STATUSES = ['ok', 'error'] as const
const TRIGGERS = [...ACTION_TRIGGERS, 'DEBUG'] as const

export function RunHistory({
  runs,
  live,
  onGoTo,
}: {
  runs: RunDoc[] | undefined
  /** Mirrored (the session reads action-runs), else fetched and tailed. */
  live: boolean
  onGoTo: (line: number) => void
}) {
  const [status, setStatus] = useState<'' | RunStatusValue>('')
  const [trigger, setTrigger] = useState<'' | (typeof TRIGGERS)[number]>('')
  const [shown, setShown] = useState(PAGE)
  const visible = useMemo(
    () => (runs ?? []).filter((r) => (!status || r.status === status) && (!trigger || r.trigger === trigger)),
    [runs, status, trigger],
  )

  return (
    <section className="panel action-history" aria-labelledby="action-history-heading">
      <div className="action-history-head">
        <h2 id="action-history-heading">Run history</h2>
        <p className="muted" aria-live="polite">
          {runs === undefined ? 'Loading…' : countOfTotal(visible.length, runs.length, 'run')}
        </p>
      </div>
      <p className="field-hint">
        {live ? ACTIONS_CONSOLE_TEXT.historyLive : ACTIONS_CONSOLE_TEXT.historyFallback}
      </p>
      <div className="search-row">
        <FilterSelect
          label="Status"
          name="Filter runs by status"
          all="All"
          value={status}
          onChange={setStatus}
          options={STATUSES}
        />
        <FilterSelect
          label="Trigger"
          name="Filter runs by trigger"
          all="All"
          value={trigger}
          onChange={setTrigger}
          options={TRIGGERS}
        />
      </div>
      {runs !== undefined && visible.length === 0 && (
        <p className="muted">{ACTIONS_CONSOLE_TEXT.historyEmpty}</p>
      )}
      <ol className="run-list" aria-label="Runs">
        {visible.slice(0, shown).map((run) => (
          <li key={run._id} className="run-entry">
            <details>
              <summary>
                <RunStatus run={run} />
                <span className="kind-badge">{run.trigger}</span>
                <time dateTime={run.start}>{new Date(run.start).toLocaleString()}</time>
              </summary>
              <RunDetails run={run} onGoTo={onGoTo} />
            </details>
          </li>
        ))}
      </ol>
      {visible.length > shown && (
        <button type="button" className="button button-quiet" onClick={() => setShown((n) => n + PAGE)}>
          Show {Math.min(PAGE, visible.length - shown)} more
        </button>
      )}
    </section>
  )
}
