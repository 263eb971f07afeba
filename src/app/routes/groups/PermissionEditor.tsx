/**
 * The permission list of a group (SPEC §6 path:letters; c r u d * n; wildcards): one row per entry,
 * each checked as it is typed with the shared parser, and a live preview of what the group may do on
 * every console section and on any path typed into the tester — with the entry that wins and why.
 */
import { Check, Minus, Plus, X } from 'lucide-react'
import { useMemo, useState } from 'react'
import type { Grant } from '../../../shared/permissions'
import {
  checkEntries,
  METHOD_WORDS,
  previewPath,
  SECTIONS,
  sectionSentence,
  summary,
} from './permission-preview'

interface Props {
  entries: string[]
  onChange: (next: string[]) => void
  disabled?: boolean
}

export function PermissionEditor({ entries, onChange, disabled }: Props) {
  // A row just added and still empty is not an error yet; empty rows are dropped on save.
  const checks = checkEntries(entries).map((c) => (c.raw.trim() ? c : { ...c, error: null }))
  const grants = useMemo(() => checkEntries(entries).flatMap((c) => (c.grant ? [c.grant] : [])), [entries])
  const set = (i: number, value: string) => onChange(entries.map((e, j) => (j === i ? value : e)))

  return (
    <div className="perm-editor">
      <ul className="perm-entries" aria-label="Permission entries">
        {checks.map((c, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: entries are edited in place; the index is the row
          <li key={i} className="perm-entry">
            <input
              className="input mono"
              aria-label={`Permission ${i + 1}`}
              aria-invalid={!!c.error}
              aria-describedby={c.error ? `perm-error-${i}` : undefined}
              placeholder="path:letters, e.g. users:r"
              value={c.raw}
              disabled={disabled}
              onChange={(e) => set(i, e.target.value)}
            />
            <button
              type="button"
              className="icon-button"
              aria-label={`Remove ${c.raw || 'entry'}`}
              disabled={disabled}
              onClick={() => onChange(entries.filter((_, j) => j !== i))}
            >
              <X size={16} aria-hidden="true" />
            </button>
            {c.error && (
              <p id={`perm-error-${i}`} className="field-error">
                {c.error}
              </p>
            )}
          </li>
        ))}
      </ul>
      <button type="button" className="button" disabled={disabled} onClick={() => onChange([...entries, ''])}>
        <Plus size={16} aria-hidden="true" /> Add permission
      </button>
      <p className="field-hint">
        Letters: c create, r read, u update, d delete, * all, n none. A path covers everything below it, *
        matches any text, and the most specific entry wins.
      </p>
      <Preview grants={grants} />
    </div>
  )
}

function Preview({ grants }: { grants: readonly Grant[] }) {
  const [path, setPath] = useState('users/admin')
  const tested = previewPath(grants, path.trim())
  return (
    <section className="perm-preview" aria-labelledby="preview-heading">
      <h3 id="preview-heading">What this group can do</h3>
      <p className="perm-summary" data-testid="perm-summary">
        {grants.length ? summary(grants) : 'Nothing: a group without permissions grants nothing.'}
      </p>
      <div className="table-scroll">
        <table className="perm-table">
          <thead>
            <tr>
              <th scope="col">Section</th>
              <th scope="col">API path</th>
              {(['c', 'r', 'u', 'd'] as const).map((m) => (
                <th key={m} scope="col">
                  {METHOD_WORDS[m]}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {SECTIONS.map((s) => {
              const cells = previewPath(grants, s.path)
              return (
                <tr key={s.path} data-section={s.path}>
                  <th scope="row">
                    <button type="button" className="link-button" onClick={() => setPath(s.path)}>
                      {s.label}
                    </button>
                    <span className="visually-hidden">: {sectionSentence(s.label, cells)}</span>
                  </th>
                  <td className="mono">/api/{s.path}</td>
                  {cells.map((c) => (
                    <td
                      key={c.method}
                      className={c.decision.allowed ? 'perm-yes' : 'perm-no'}
                      data-method={c.method}
                      data-allowed={c.decision.allowed}
                      title={c.why}
                    >
                      {c.decision.allowed ? (
                        <Check size={16} aria-label="allowed" />
                      ) : (
                        <Minus size={16} aria-label="refused" />
                      )}
                    </td>
                  ))}
                </tr>
              )
            })}
          </tbody>
        </table>
      </div>
      <div className="field perm-tester">
        <label htmlFor="perm-test-path">Try a path</label>
        <input
          id="perm-test-path"
          className="input mono"
          value={path}
          placeholder="e.g. data/contacts/42"
          onChange={(e) => setPath(e.target.value)}
        />
        <ul className="perm-why" aria-live="polite">
          {tested.map((c) => (
            <li key={c.method} data-method={c.method} data-allowed={c.decision.allowed}>
              <strong>
                {c.decision.allowed ? 'Can' : 'Cannot'} {METHOD_WORDS[c.method]}
              </strong>{' '}
              — {c.why}
            </li>
          ))}
        </ul>
      </div>
    </section>
  )
}
