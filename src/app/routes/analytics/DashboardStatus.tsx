/** Loading, error, and the "as of" line that says when the numbers shown were fetched, offline or not. */
import type { DashboardState } from './use-dashboard'

export function DashboardStatus({ state }: { state: DashboardState<unknown> }) {
  const asOf = state.asOf ? new Date(state.asOf).toLocaleString() : null
  return (
    <div className="analytics-status" role="status">
      {state.error && <p className="notice notice-warning">{state.error}</p>}
      {state.stale && asOf && (
        <p className="notice notice-warning" data-testid="analytics-offline">
          Offline: showing the dashboard as of {asOf}.
        </p>
      )}
      {!state.stale && asOf && (
        <p className="muted" data-testid="analytics-as-of">
          As of {asOf}
          {state.loading ? ' · refreshing…' : ''}
        </p>
      )}
      {!asOf && state.loading && (
        <p className="screen-loading">
          <span className="spinner" aria-hidden="true" /> Loading…
        </p>
      )}
      {!state.loading && (
        <button type="button" className="button button-quiet button-small" onClick={state.reload}>
          Refresh
        </button>
      )}
    </div>
  )
}
