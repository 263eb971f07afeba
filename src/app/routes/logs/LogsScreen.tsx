/**
 * Client Logs and Server Logs (SPEC §2 /logs/client, /logs/server): a live tail of one channel read
 * from the mirror (so it stays readable offline), newest first and following new lines unless paused,
 * with level chips, search and a time range. Clear deletes the lines the filter shows through the
 * mutation API, so it works offline and reaches the server through the outbox.
 */
import { CloudOff, Pause, Play, Trash2 } from 'lucide-react'
import { useMemo, useState } from 'react'
import type { LogRow } from '../../../db/types'
import { LOG_LEVELS } from '../../../shared/constants'
import { SCREENS_TEXT } from '../../../shared/texts'
import { runBatches } from '../../components/batches'
import { preview } from '../../components/format'
import { prettyJson } from '../../components/json-text'
import { type Column, VirtualTable } from '../../components/VirtualTable'
import { useMutate, useSyncDb } from '../../data/sync-context'
import type { WrittenDoc } from '../../data/write-outcome'
import { confirmDelete, notifyDeleted } from '../../feedback/notify'
import { toast } from '../../feedback/toast-store'
import { DeniedButton } from '../../session/ReadOnly'
import { useWriteRefusal } from '../../session/use-can'
import { usePageTitle } from '../../shell/page-chrome'
import { useNarrow } from '../../shell/use-narrow'
import { useServerReachable } from '../../sync-ui/use-server-reachable'
import {
  EMPTY_LOG_FILTER,
  type LogFilter,
  lineMatcher,
  logFilterKey,
  timeBounds,
  toggleLevel,
} from './log-filter'
import { type LogQuery, matchingIds, useLogCounts, useLogLines } from './use-log-lines'
import './logs.css'
import { countOf, grouped } from '../../../shared/plural'

/** One screenful many times over; "Show more" adds the same again. */
const PAGE = 500

const time = (iso: string) => {
  const d = new Date(iso)
  return Number.isNaN(d.getTime())
    ? iso
    : d.toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'medium' })
}

/** Column widths: on a phone the message gets what the time and level can spare. */
const WIDTHS = {
  wide: { time: 190, level: 90, log: 520, ctx: 260 },
  narrow: { time: 150, level: 72, log: 320, ctx: 200 },
}

export function LogsScreen({ channel, title }: { channel: string; title: string }) {
  usePageTitle(title)
  const db = useSyncDb()
  const mutate = useMutate()
  const collection = `logs/${channel}`
  const narrow = useNarrow()
  const [filter, setFilter] = useState<LogFilter>(EMPTY_LOG_FILTER)
  const [limit, setLimit] = useState(PAGE)
  const [pausedAt, setPausedAt] = useState<string | null>(null)
  const [open, setOpen] = useState<LogRow | null>(null)
  const fKey = logFilterKey(filter)
  // biome-ignore lint/correctness/useExhaustiveDependencies: fKey stands for filter
  const query: LogQuery = useMemo(() => {
    const { lower, upper } = timeBounds(filter)
    const cap = pausedAt && (!upper || pausedAt < upper) ? pausedAt : upper
    return { lower, upper: cap, matcher: lineMatcher(filter), key: fKey, limit }
  }, [fKey, pausedAt, limit])
  const lines = useLogLines(db, channel, query)
  const counts = useLogCounts(db, channel, pausedAt)
  const set = (patch: Partial<LogFilter>) => {
    setFilter((f) => ({ ...f, ...patch }))
    setLimit(PAGE)
  }
  const filtered = fKey !== logFilterKey(EMPTY_LOG_FILTER)

  // Clearing deletes lines: without logs/{channel}:d the button stays, disabled, saying why (issue 11).
  const clearRefused = useWriteRefusal()('delete', collection)
  const reachable = useServerReachable()

  const pause = () => setPausedAt(lines?.[0]?.time ?? new Date().toISOString())

  const clear = async () => {
    if (!db || clearRefused) return
    const ids = await matchingIds(db, channel, query)
    if (!ids.length) {
      toast.warning(SCREENS_TEXT.logsNothingToClear)
      return
    }
    if (!(await confirmDelete(ids.length, ids.length === 1 ? 'log line' : 'log lines'))) return
    const written: WrittenDoc[] = []
    const result = await runBatches(
      ids,
      async (id) => {
        await mutate.delete(collection, id)
        written.push({ collection, id })
      },
      () => {},
    )
    notifyDeleted(result.done, ids.length, reachable, written)
    setOpen(null)
  }

  const w = WIDTHS[narrow ? 'narrow' : 'wide']
  const columns: Column<LogRow>[] = [
    {
      key: 'time',
      label: 'Time',
      width: w.time,
      render: (r) => <time dateTime={r.time}>{time(r.time)}</time>,
    },
    {
      key: 'level',
      label: 'Level',
      width: w.level,
      render: (r) => <span className={`level level-${r.level.toLowerCase()}`}>{r.level}</span>,
    },
    {
      key: 'log',
      label: 'Message',
      width: w.log,
      render: (r) => (
        <span className="log-text">
          {r.log}
          {r.pending === 1 && (
            <span className="sync-marker" title={SCREENS_TEXT.notSyncedHint}>
              <CloudOff size={13} aria-hidden="true" /> {SCREENS_TEXT.notSynced}
            </span>
          )}
        </span>
      ),
    },
    {
      key: 'ctx',
      label: 'Context',
      width: w.ctx,
      render: (r) => <span className="muted">{preview(r.ctx ?? undefined, 80)}</span>,
    },
  ]

  return (
    <section className="screen logs-screen" aria-labelledby="page-heading">
      <header className="screen-head screen-head-row">
        <div>
          <h1 id="page-heading">{title}</h1>
          <p className="muted" aria-live="polite">
            {lines === undefined
              ? 'Loading…'
              : filtered
                ? `${grouped(lines.length)}${lines.length >= limit ? '+' : ''} of ${countOf(counts.total, 'line')}`
                : countOf(counts.total, 'line')}
          </p>
        </div>
        <div className="actions">
          <button
            type="button"
            className="button button-quiet"
            aria-pressed={pausedAt !== null}
            onClick={() => (pausedAt ? setPausedAt(null) : pause())}
          >
            {pausedAt ? <Play size={16} aria-hidden="true" /> : <Pause size={16} aria-hidden="true" />}
            {pausedAt ? 'Resume' : 'Pause'}
          </button>
          {clearRefused ? (
            <DeniedButton className="button button-danger-quiet" reason={clearRefused.message}>
              <Trash2 size={16} aria-hidden="true" /> {filtered ? 'Clear shown' : 'Clear'}
            </DeniedButton>
          ) : (
            <button type="button" className="button button-danger-quiet" onClick={() => void clear()}>
              <Trash2 size={16} aria-hidden="true" /> {filtered ? 'Clear shown' : 'Clear'}
            </button>
          )}
        </div>
      </header>
      <div className="log-filters">
        <fieldset className="level-chips">
          <legend className="visually-hidden">Levels</legend>
          {LOG_LEVELS.map((l) => (
            <button
              key={l}
              type="button"
              className={`chip level-${l.toLowerCase()}`}
              aria-pressed={filter.levels.has(l)}
              onClick={() => set({ levels: toggleLevel(filter.levels, l) })}
            >
              {l}
            </button>
          ))}
        </fieldset>
        <input
          type="search"
          className="input log-search"
          aria-label="Search logs"
          placeholder="Search"
          value={filter.search}
          onChange={(e) => set({ search: e.target.value })}
        />
        <fieldset className="time-range">
          <legend>Time range</legend>
          <label className="range-field">
            <span>From</span>
            <input
              type="datetime-local"
              className="input"
              value={filter.from}
              onChange={(e) => set({ from: e.target.value })}
            />
          </label>
          <label className="range-field">
            <span>To</span>
            <input
              type="datetime-local"
              className="input"
              value={filter.to}
              onChange={(e) => set({ to: e.target.value })}
            />
          </label>
        </fieldset>
      </div>
      {pausedAt && (
        <p className="notice notice-warning" role="status">
          {SCREENS_TEXT.logsPaused(counts.newer)}{' '}
          <button
            type="button"
            className="button button-small button-quiet"
            onClick={() => setPausedAt(null)}
          >
            Resume
          </button>
        </p>
      )}
      <VirtualTable
        label={`${title} lines, newest first`}
        rowCount={lines?.length ?? 0}
        rowAt={(i) => lines?.[i]}
        rowKey={(r) => r.id}
        columns={columns}
        onOpen={(r) => setOpen(r)}
        rowHeight={38}
        rowClass={(r) => (open?.id === r.id ? 'is-selected' : undefined)}
        empty={lines === undefined ? 'Loading…' : SCREENS_TEXT.logsEmpty}
      />
      {lines && lines.length >= limit && (
        <button
          type="button"
          className="button button-quiet show-more"
          onClick={() => setLimit((n) => n + PAGE)}
        >
          Show older lines
        </button>
      )}
      {open && (
        <aside className="log-detail" aria-label="Log line">
          <header>
            <span className={`level level-${open.level.toLowerCase()}`}>{open.level}</span>
            <time dateTime={open.time}>{time(open.time)}</time>
            <button type="button" className="button button-small button-quiet" onClick={() => setOpen(null)}>
              Close
            </button>
          </header>
          <pre className="mono">{open.log}</pre>
          {open.ctx != null && <pre className="mono">{prettyJson(open.ctx)}</pre>}
        </aside>
      )}
    </section>
  )
}
