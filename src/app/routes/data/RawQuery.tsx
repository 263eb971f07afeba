/**
 * The raw query box (SPEC §7: POST /api/data/{c}?raw with operand find, count or distinct and a query
 * object; docs/operating/query.md). It is the one part of the Database screen that asks the server rather than
 * the mirror, because it speaks the server's query language over data this device may not hold. With
 * no network it says so plainly instead of failing.
 */
import { Play } from 'lucide-react'
import { type FormEvent, useEffect, useState } from 'react'
import { countOf } from '../../../shared/plural'
import { SCREENS_TEXT } from '../../../shared/texts'
import { api } from '../../api/client'
import { JsonEditor } from '../../components/JsonEditor'
import { parseJsonObject, prettyJson } from '../../components/json-text'
import { useServerReachable } from '../../sync-ui/use-server-reachable'

type Operand = 'find' | 'count' | 'distinct'

const EXAMPLES: Record<Operand, string> = {
  find: '{\n  "filter": {},\n  "sort": {"_id": 1},\n  "limit": 20\n}',
  count: '{\n  "filter": {}\n}',
  distinct: '{\n  "field": "",\n  "filter": {}\n}',
}

type Answer = { ok: true; value: unknown; total: number | null } | { ok: false; message: string }

export function RawQuery({ collection }: { collection: string }) {
  const toolbarReachable = useServerReachable()
  const [unreachable, setUnreachable] = useState(false)
  const online = toolbarReachable && !unreachable
  const [operand, setOperand] = useState<Operand>('find')
  const [text, setText] = useState(EXAMPLES.find)
  const [busy, setBusy] = useState(false)
  const [answer, setAnswer] = useState<Answer | null>(null)
  const parsed = parseJsonObject(text)
  useEffect(() => {
    if (toolbarReachable) setUnreachable(false)
  }, [toolbarReachable])

  const run = async (e: FormEvent) => {
    e.preventDefault()
    if (!parsed.ok || !toolbarReachable) return
    setBusy(true)
    setUnreachable(false)
    try {
      const value = await api.request<unknown>(`/api/data/${encodeURIComponent(collection)}`, {
        method: 'POST',
        query: { raw: '' },
        body: { operand, query: parsed.value },
      })
      setAnswer({ ok: true, value, total: Array.isArray(value) && operand === 'find' ? value.length : null })
    } catch (err) {
      // fetch rejects with a TypeError only when no answer came back at all: no network.
      if (err instanceof TypeError) {
        setUnreachable(true)
        setAnswer(null)
        return
      }
      setAnswer({ ok: false, message: err instanceof Error ? err.message : String(err) })
    } finally {
      setBusy(false)
    }
  }

  return (
    <form className="raw-query" onSubmit={run} aria-label="Raw query">
      <div className="raw-query-bar">
        <label htmlFor="raw-operand">Operand</label>
        <select
          id="raw-operand"
          className="input"
          value={operand}
          onChange={(e) => {
            const next = e.target.value as Operand
            if (text === EXAMPLES[operand]) setText(EXAMPLES[next])
            setOperand(next)
          }}
        >
          <option value="find">find</option>
          <option value="count">count</option>
          <option value="distinct">distinct</option>
        </select>
        <button
          type="submit"
          className="button button-primary"
          disabled={!toolbarReachable || !parsed.ok || busy}
        >
          <Play size={16} aria-hidden="true" /> {busy ? 'Running…' : 'Run on server'}
        </button>
      </div>
      <JsonEditor label="Query" value={text} onChange={setText} rows={6} />
      {!online && (
        <p className="notice notice-warning" role="status">
          {SCREENS_TEXT.rawOffline}
        </p>
      )}
      {answer && (
        <output className="raw-answer" aria-live="polite">
          {answer.ok ? (
            <>
              <span className="muted">
                {answer.total !== null
                  ? countOf(answer.total, 'document')
                  : operand === 'count'
                    ? 'Count'
                    : 'Values'}
              </span>
              <pre>{prettyJson(answer.value)}</pre>
            </>
          ) : (
            <p className="form-error">{answer.message}</p>
          )}
        </output>
      )}
    </form>
  )
}
