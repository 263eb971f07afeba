/**
 * One inbox item: the document as it was when I changed it (base), my version and the server's, field
 * by field. "Keep mine" re-sends my version on the server's new revision, "Take theirs" drops mine,
 * "Merge" sends a body built from a per-field choice (preselected as a three-way merge would pick).
 * The result is announced only after the engine stored the resolution.
 */
import { useMemo, useState } from 'react'
import type { InboxItem } from '../../db/types'
import { SYNC_UI_TEXT } from '../../shared/texts'
import type { Resolution } from '../../sync/inbox'
import { useEngine } from '../data/sync-context'
import { toast } from '../feedback/toast-store'
import { useWriteRefusal } from '../session/use-can'
import { type FieldRow, fieldRows, mergedBody, type Side, showValue } from './conflict-fields'

export function ConflictView({ item, onDone }: { item: InboxItem; onDone: () => void }) {
  const engine = useEngine()
  const rows = useMemo(() => fieldRows(item.base, item.mine, item.theirs), [item])
  // Only what differs between mine and the server's is listed; the merge still carries every field.
  const shown = rows.filter((r) => r.differs)
  const [choice, setChoice] = useState<Record<string, Side>>({})
  const [busy, setBusy] = useState(false)
  const t = SYNC_UI_TEXT
  // "Keep mine" and "Merge" send a write again: one the session may not make (a 403 for a missing
  // permission) would only be refused again, so they say why instead (issue 11).
  const op = item.mine === null ? 'delete' : item.theirs === null ? 'create' : 'update'
  const resendRefused = useWriteRefusal()(op, item.collection, item.docId)

  const run = async (resolution: Resolution) => {
    setBusy(true)
    try {
      await engine.resolve(item.mutationId, resolution)
      toast.success(t.resolved)
      onDone()
    } catch (e) {
      toast.error(e instanceof Error ? e.message : String(e))
    } finally {
      setBusy(false)
    }
  }

  return (
    <section className="mc-conflict" data-testid="conflict-view" aria-label={t.conflictTitle(item.docId)}>
      <h3>{t.conflictTitle(`${item.collection}/${item.docId}`)}</h3>
      <p className="muted">
        {t.conflictKind[item.kind]} ({item.status}): {item.message}
      </p>
      <table className="mc-sync-table mc-conflict-table">
        <thead>
          <tr>
            <th scope="col">{t.field}</th>
            <th scope="col">{t.base}</th>
            <th scope="col">{t.mine}</th>
            <th scope="col">{t.theirs}</th>
            <th scope="col">{t.changeColumn}</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((row) => (
            <ConflictRow
              key={row.field}
              row={row}
              side={choice[row.field] ?? row.suggested}
              docs={{ base: item.base !== null, mine: item.mine !== null, theirs: item.theirs !== null }}
              onPick={(side) => setChoice({ ...choice, [row.field]: side })}
            />
          ))}
        </tbody>
      </table>
      {rows.length > shown.length && (
        <p className="muted" data-testid="conflict-same">
          {t.sameFields(rows.length - shown.length)}
        </p>
      )}
      <p className="muted">{t.mergeHint}</p>
      {resendRefused && (
        <p className="muted" data-testid="resend-refused">
          {resendRefused.message}
        </p>
      )}
      <div className="mc-dialog-actions">
        <button type="button" className="mc-button" disabled={busy} onClick={() => onDone()}>
          {t.close}
        </button>
        <button
          type="button"
          className="mc-button"
          disabled={busy}
          onClick={() => void run({ choice: 'theirs' })}
        >
          {t.takeTheirs}
        </button>
        <button
          type="button"
          className="mc-button"
          disabled={busy}
          aria-disabled={resendRefused ? true : undefined}
          title={resendRefused?.message}
          onClick={() => !resendRefused && void run({ choice: 'merge', body: mergedBody(rows, choice) })}
        >
          {t.merge}
        </button>
        <button
          type="button"
          className="mc-button mc-button-primary"
          disabled={busy}
          aria-disabled={resendRefused ? true : undefined}
          title={resendRefused?.message}
          onClick={() => !resendRefused && void run({ choice: 'mine' })}
        >
          {t.keepMine}
        </button>
      </div>
    </section>
  )
}

interface RowProps {
  row: FieldRow
  side: Side
  docs: { base: boolean; mine: boolean; theirs: boolean }
  onPick: (side: Side) => void
}

function ConflictRow({ row, side, docs, onPick }: RowProps) {
  const cell = (present: boolean, docExists: boolean, value: unknown) =>
    present ? showValue(value) : docExists ? SYNC_UI_TEXT.absent : SYNC_UI_TEXT.deleted
  const name = `pick-${row.field}`
  const pick = (s: Side, present: boolean, docExists: boolean, value: unknown) =>
    row.differs ? (
      <label className="mc-conflict-pick">
        <input type="radio" name={name} checked={side === s} onChange={() => onPick(s)} />
        <span>{cell(present, docExists, value)}</span>
      </label>
    ) : (
      cell(present, docExists, value)
    )
  return (
    <tr data-field={row.field} data-differs={row.differs} data-change={row.change}>
      <th scope="row">{row.field}</th>
      <td data-side="base">{cell(row.inBase, docs.base, row.base)}</td>
      <td data-side="mine">{pick('mine', row.inMine, docs.mine, row.mine)}</td>
      <td data-side="theirs">{pick('theirs', row.inTheirs, docs.theirs, row.theirs)}</td>
      <td data-side="change">{row.change === 'none' ? '' : SYNC_UI_TEXT.changeKind[row.change]}</td>
    </tr>
  )
}
