/**
 * The debug panel of the action editor: an input (a JSON object), Run (POST /api/actions/debug/{id}),
 * and the answer: status and timing, the output, the log lines, the writes a dry run did not do, and
 * an error with the script's line number (a button puts the editor's cursor on it). It runs the SAVED
 * action on the server, so it needs the network and no unsaved or unsent edits, and says which is
 * missing instead of running something else than what is on screen.
 */
import { Play } from 'lucide-react'
import { useState } from 'react'
import { ACTIONS_CONSOLE_TEXT } from '../../../shared/texts'
import { JsonEditor } from '../../components/JsonEditor'
import { parseJsonObject } from '../../components/json-text'
import { onlineOnlyError } from '../../sync-ui/online-only'
import { useServerReachable } from '../../sync-ui/use-server-reachable'
import { type DebugAnswer, debugAction } from './action-data'
import { RunDetails, RunStatus } from './RunDetails'

interface Props {
  id: string
  modified: boolean
  pending: boolean
  onGoTo: (line: number) => void
}

export function DebugPanel({ id, modified, pending, onGoTo }: Props) {
  const reachable = useServerReachable()
  const [input, setInput] = useState('{\n  "name": "Ada"\n}')
  const [commit, setCommit] = useState(false)
  const [busy, setBusy] = useState(false)
  const [answer, setAnswer] = useState<DebugAnswer | null>(null)
  const [failure, setFailure] = useState<string | null>(null)
  const parsed = parseJsonObject(input)
  const blocker = !reachable
    ? ACTIONS_CONSOLE_TEXT.runOffline
    : modified
      ? ACTIONS_CONSOLE_TEXT.runNeedsSave
      : pending
        ? ACTIONS_CONSOLE_TEXT.runNeedsSync
        : null

  const run = async () => {
    if (!parsed.ok || blocker) return
    setBusy(true)
    setFailure(null)
    try {
      setAnswer(await debugAction(id, parsed.value, commit))
    } catch (e) {
      setAnswer(null)
      setFailure(onlineOnlyError('Running an action', e))
    } finally {
      setBusy(false)
    }
  }

  return (
    <section className="panel action-debug" aria-labelledby="action-debug-heading">
      <h2 id="action-debug-heading">Debug</h2>
      <JsonEditor label="Input (JSON)" value={input} onChange={setInput} rows={5} />
      <label className="check-row">
        <input type="checkbox" checked={commit} onChange={(e) => setCommit(e.target.checked)} />
        Do the writes (otherwise a dry run)
      </label>
      <div className="actions">
        <button
          type="button"
          className="button button-primary"
          disabled={busy || !!blocker || !parsed.ok}
          aria-describedby={blocker ? 'action-debug-blocker' : undefined}
          onClick={() => void run()}
        >
          <Play size={16} aria-hidden="true" /> {busy ? 'Running…' : 'Run'}
        </button>
      </div>
      {blocker && (
        <p className="notice" id="action-debug-blocker" role="status">
          {blocker}
        </p>
      )}
      {failure && (
        <p className="field-error" role="alert">
          {failure}
        </p>
      )}
      {answer && (
        <section className="debug-answer" aria-label="Debug result">
          <p>
            <RunStatus
              run={{ status: answer.status, error: answer.error, durationMs: answer.timing.durationMs }}
            />{' '}
            <span className="muted">
              started {new Date(answer.timing.start).toLocaleTimeString()} ·{' '}
              {Math.round(answer.timing.durationMs)} ms
              {!answer.committed && ` · ${ACTIONS_CONSOLE_TEXT.dryRun}`}
            </span>
          </p>
          <RunDetails run={answer} onGoTo={onGoTo} />
          {answer.writes.length > 0 && (
            <div>
              <h3>{answer.committed ? 'Writes' : 'Writes not done (dry run)'}</h3>
              <ul className="debug-writes">
                {answer.writes.map((w, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: writes have no id of their own and never reorder
                  <li key={i}>
                    <code>
                      {w.op} {w.collection}
                      {w.id ? `/${w.id}` : ''}
                    </code>
                  </li>
                ))}
              </ul>
            </div>
          )}
        </section>
      )}
    </section>
  )
}
