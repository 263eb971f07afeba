/**
 * What one run produced, shared by the debug answer and each history entry: the error with the
 * script's line (and a button to put the cursor on it), the output as JSON, and the log lines.
 */
import { ACTIONS_CONSOLE_TEXT } from '../../../shared/texts'

export interface RunLike {
  status: 'ok' | 'error'
  result?: unknown
  error?: { kind: string; message: string; line?: number }
  logs: string[]
}

export function RunDetails({ run, onGoTo }: { run: RunLike; onGoTo?: (line: number) => void }) {
  const { error } = run
  return (
    <div className="run-details">
      {error && (
        <div className="run-error-box" role="alert">
          <strong>{ACTIONS_CONSOLE_TEXT.errorAt(error.kind, error.line)}</strong>
          <p>{error.message}</p>
          {error.line && onGoTo && (
            <button
              type="button"
              className="button button-quiet button-small"
              onClick={() => onGoTo(error.line!)}
            >
              Go to line {error.line}
            </button>
          )}
        </div>
      )}
      {run.status === 'ok' && (
        <section aria-label="Output">
          <h3>Output</h3>
          <pre className="run-output">
            {run.result === undefined ? 'undefined' : JSON.stringify(run.result, null, 2)}
          </pre>
        </section>
      )}
      <section aria-label="Logs">
        <h3>Logs</h3>
        {run.logs.length === 0 ? (
          <p className="muted">No log lines.</p>
        ) : (
          <pre className="run-logs">{run.logs.join('\n')}</pre>
        )}
      </section>
    </div>
  )
}

/** "ok · 12 ms" or what stopped it ("time limit · 2002 ms"), coloured. */
export function RunStatus({ run }: { run: Pick<RunLike, 'status' | 'error'> & { durationMs: number } }) {
  const ok = run.status === 'ok'
  return (
    <span className={`run-status ${ok ? 'run-ok' : 'run-error'}`}>
      {ok ? 'ok' : ACTIONS_CONSOLE_TEXT.errorLabel(run.error?.kind ?? 'script')} ·{' '}
      {Math.round(run.durationMs)} ms
    </span>
  )
}
