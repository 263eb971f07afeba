/**
 * This browser's network speed test (src/app/analytics/speed-store.ts): its result, and buttons to
 * run it again or cancel a run in progress.
 */
import { useSyncExternalStore } from 'react'
import { bytesPerSecondToMbps } from '../../../shared/analytics'
import { consoleSpeedTest } from '../../analytics/console'
import { speedText } from './labels'

export function SpeedPanel() {
  const store = consoleSpeedTest()
  const state = useSyncExternalStore(store.subscribe, store.get)
  let text: string
  switch (state.status) {
    case 'idle':
      text = 'Not measured yet.'
      break
    case 'running':
      text = 'Measuring…'
      break
    case 'done':
      text = `${speedText(bytesPerSecondToMbps(state.bytesPerSecond))} (${state.steps.map((s) => `${Math.round(s.bytes / 1_000_000)} MB`).join(' + ')} downloaded)`
      break
    case 'skipped':
      text =
        state.reason === 'save-data'
          ? 'Not measured: this connection asks to save data.'
          : 'Not measured: this browser asks not to be tracked.'
      break
    case 'cancelled':
      text = 'Cancelled.'
      break
    case 'failed':
      text = `Could not measure: ${state.message}`
      break
  }
  return (
    <section className="panel analytics-panel analytics-speed" aria-label="Your connection">
      <h2>Your connection</h2>
      <p
        role="status"
        data-testid="speed-result"
        data-status={state.status}
        data-steps={state.status === 'done' ? JSON.stringify(state.steps) : undefined}
      >
        {text}
      </p>
      {state.status === 'running' ? (
        <button type="button" className="button button-quiet button-small" onClick={() => store.cancel()}>
          Cancel
        </button>
      ) : state.status === 'skipped' && state.reason === 'do-not-track' ? null : (
        <button type="button" className="button button-quiet button-small" onClick={() => void store.run()}>
          Test speed
        </button>
      )}
    </section>
  )
}
