/**
 * This browser's network speed test (src/app/analytics/speed-store.ts): its result and when it was
 * taken, what a run costs and when the console runs one by itself, and buttons to run it now or
 * cancel a run in progress.
 */
import { useSyncExternalStore } from 'react'
import { bytesPerSecondToMbps } from '../../../shared/analytics'
import { SPEED_TEXT } from '../../../shared/texts'
import { consoleSpeedTest } from '../../analytics/console'
import type { SpeedState } from '../../analytics/speed-store'
import { speedText } from './labels'

const stepsText = (steps: readonly { bytes: number }[]) =>
  steps.map((s) => `${Math.round(s.bytes / 1_000_000)} MB`).join(' + ')

const whenText = (at: number) =>
  new Date(at).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })

function resultText(state: SpeedState): string {
  switch (state.status) {
    case 'idle':
      return SPEED_TEXT.idle
    case 'running':
      return SPEED_TEXT.running
    case 'done':
      return SPEED_TEXT.done(
        speedText(bytesPerSecondToMbps(state.bytesPerSecond)),
        stepsText(state.steps),
        whenText(state.measuredAt),
      )
    case 'skipped':
      return state.reason === 'save-data'
        ? SPEED_TEXT.saveData
        : state.reason === 'cellular'
          ? SPEED_TEXT.cellular
          : SPEED_TEXT.doNotTrack
    case 'cancelled':
      return SPEED_TEXT.cancelled
    case 'failed':
      return SPEED_TEXT.failed(state.message)
  }
}

export function SpeedPanel() {
  const store = consoleSpeedTest()
  const state = useSyncExternalStore(store.subscribe, store.get)
  return (
    <section className="panel analytics-panel analytics-speed" aria-label={SPEED_TEXT.title}>
      <h2>{SPEED_TEXT.title}</h2>
      <p
        role="status"
        data-testid="speed-result"
        data-status={state.status}
        data-steps={state.status === 'done' ? JSON.stringify(state.steps) : undefined}
      >
        {resultText(state)}
      </p>
      <p className="muted" data-testid="speed-cost">
        {SPEED_TEXT.cost()}
      </p>
      {state.status === 'running' ? (
        <button type="button" className="button button-quiet button-small" onClick={() => store.cancel()}>
          {SPEED_TEXT.cancel}
        </button>
      ) : state.status === 'skipped' && state.reason === 'do-not-track' ? null : (
        <button type="button" className="button button-quiet button-small" onClick={() => void store.run()}>
          {SPEED_TEXT.run}
        </button>
      )}
    </section>
  )
}
