/**
 * The composer's recipients: users and groups from the local mirror (suggested as you type, works
 * offline), or a typed address or phone number checked with the server's rules (compose.ts). Chosen
 * recipients are chips with a remove button; Enter or "Add" adds what is typed.
 */
import { X } from 'lucide-react'
import { useId, useMemo, useState } from 'react'
import type { SyncDoc } from '../../../db/types'
import { type ComposerTab, type Pick, typedRecipient } from './compose'

interface Props {
  tab: ComposerTab
  value: Pick[]
  onChange: (next: Pick[]) => void
  users: SyncDoc[]
  groups: SyncDoc[]
}

const name = (d: SyncDoc) => (typeof d.name === 'string' && d.name ? d.name : d._id)

/** Resolves what was typed: `user:x`, `group:x`, a user or group id or name, else an address. */
export function resolvePick(
  tab: ComposerTab,
  raw: string,
  users: SyncDoc[],
  groups: SyncDoc[],
): Pick | { error: string } {
  const value = raw.trim()
  const lower = value.toLowerCase()
  const [kind, id] = value.startsWith('user:')
    ? (['user', value.slice(5)] as const)
    : value.startsWith('group:')
      ? (['group', value.slice(6)] as const)
      : (['any', value] as const)
  if (kind !== 'group') {
    const user = users.find((u) => u._id === id || (kind === 'any' && name(u).toLowerCase() === lower))
    if (user) return { entry: `user:${user._id}`, label: name(user), kind: 'user' }
  }
  if (kind !== 'user') {
    const group = groups.find((g) => g._id === id || (kind === 'any' && name(g).toLowerCase() === lower))
    if (group) return { entry: `group:${group._id}`, label: `${name(group)} (group)`, kind: 'group' }
  }
  if (kind !== 'any') return { error: `No ${kind} '${id}' on this device` }
  return typedRecipient(tab, value)
}

export function RecipientPicker({ tab, value, onChange, users, groups }: Props) {
  const [text, setText] = useState('')
  const [error, setError] = useState<string | null>(null)
  const ids = useId()
  const listId = `${ids}-suggest`
  const errorId = `${ids}-error`

  const suggestions = useMemo(
    () => [
      ...groups.map((g) => ({ value: `group:${g._id}`, label: `${name(g)} (group)` })),
      ...users.map((u) => ({ value: `user:${u._id}`, label: name(u) })),
    ],
    [users, groups],
  )

  const add = () => {
    const pick = resolvePick(tab, text, users, groups)
    if ('error' in pick) {
      setError(pick.error)
      return
    }
    if (!value.some((p) => p.entry === pick.entry)) onChange([...value, pick])
    setText('')
    setError(null)
  }

  return (
    <fieldset className="recipient-picker">
      <legend>To</legend>
      {value.length > 0 && (
        <ul className="chips" aria-label="Recipients">
          {value.map((p) => (
            <li key={p.entry} className="chip">
              <span>{p.label}</span>
              <button
                type="button"
                className="chip-remove"
                aria-label={`Remove ${p.label}`}
                onClick={() => onChange(value.filter((q) => q.entry !== p.entry))}
              >
                <X size={14} aria-hidden="true" />
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="recipient-add">
        <input
          className="input"
          aria-label="Add a recipient"
          placeholder={
            tab === 'email'
              ? 'User, group or e-mail address'
              : tab === 'sms'
                ? 'User, group or +15551234567'
                : 'User or group'
          }
          list={listId}
          value={text}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          onChange={(e) => {
            setText(e.target.value)
            setError(null)
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault()
              add()
            }
          }}
        />
        <datalist id={listId}>
          {suggestions.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </datalist>
        <button type="button" className="button" onClick={add} disabled={!text.trim()}>
          Add
        </button>
      </div>
      {error && (
        <p id={errorId} className="field-error" role="alert">
          {error}
        </p>
      )}
    </fieldset>
  )
}
