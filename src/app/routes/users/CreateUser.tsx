/**
 * The "New user" form of the Users list. SPEC §5 register rules: a username and a password are needed
 * ('Cannot register user, missing username or password'). Online it calls /api/auth/register, so the
 * password goes straight to the server; offline the profile (no password) goes through the outbox and
 * the form says how to give the account a password later — a password is never queued on the device.
 */
import { type FormEvent, useState } from 'react'
import { isValidId } from '../../../shared/ids'
import { AUTH_SCREENS_TEXT, SERVER_TEXT, VALIDATION } from '../../../shared/texts'
import { api } from '../../api/client'
import { useMutate } from '../../data/sync-context'
import { notifySaved } from '../../feedback/notify'
import { useCan } from '../../session/use-can'
import { onlineOnlyError } from '../../sync-ui/online-only'
import { useServerReachable } from '../../sync-ui/use-server-reachable'
import { NewPasswordField, newPasswordProblem } from './NewPasswordField'

export interface GroupOption {
  id: string
  name: string
}

export function CreateUser({ groups, onDone }: { groups: GroupOption[]; onDone: (id: string) => void }) {
  // The toolbar's state, not navigator.onLine: with the server cut off behind a working network the
  // form offers the profile-only create (through the outbox) instead of a register that cannot answer.
  const online = useServerReachable()
  const mutate = useMutate()
  const [form, setForm] = useState({ id: '', name: '', email: '', password: '' })
  const [member, setMember] = useState<ReadonlySet<string>>(new Set())
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  // The server takes groups only from callers with groups:u (register ignores them, a queued create
  // would be refused), so without it the choice is not offered.
  const canGroups = useCan()('groups:u')
  const set = (k: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm({ ...form, [k]: e.target.value })

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    const id = form.id.trim()
    const password = form.password.trim()
    if (!id || (online && !password)) return setError(VALIDATION.registerMissing)
    if (!isValidId(id)) return setError(SERVER_TEXT.idRule('username'))
    if (online) {
      const problem = await newPasswordProblem(password, [id, form.name, form.email])
      if (problem) return setError(problem)
    }
    const profile: Record<string, unknown> = { groups: canGroups ? [...member] : [] }
    if (form.name.trim()) profile.name = form.name.trim()
    if (form.email.trim()) profile.email = form.email.trim()
    setBusy(true)
    setError(null)
    try {
      if (online) await api.request('/api/auth/register', { body: { _id: id, password, ...profile } })
      else await mutate.create('users', profile, id)
      notifySaved(`User ${id}`, online, online ? undefined : { collection: 'users', id })
      onDone(id)
    } catch (err) {
      // Lost the link between the check and the call: keep the profile locally, never the password.
      if (online) setError(onlineOnlyError('Creating a user with a password', err))
      else setError(err instanceof Error ? err.message : String(err))
    } finally {
      setBusy(false)
    }
  }

  return (
    <form className="panel create-form" onSubmit={submit} aria-label="New user" noValidate>
      <div className="form-grid">
        <div className="field">
          <label htmlFor="new-user-id">Username</label>
          <input id="new-user-id" className="input" autoComplete="off" value={form.id} onChange={set('id')} />
        </div>
        <div className="field">
          <label htmlFor="new-user-name">Name</label>
          <input id="new-user-name" className="input" value={form.name} onChange={set('name')} />
        </div>
        <div className="field">
          <label htmlFor="new-user-email">E-mail</label>
          <input
            id="new-user-email"
            className="input"
            type="email"
            value={form.email}
            onChange={set('email')}
          />
        </div>
        <NewPasswordField
          id="new-user-password"
          label="Password"
          disabled={!online}
          value={online ? form.password : ''}
          onChange={(password) => setForm({ ...form, password })}
          context={[form.id, form.name, form.email]}
        />
      </div>
      {groups.length > 0 && (
        <fieldset className="check-list" disabled={!canGroups}>
          <legend>Groups</legend>
          {!canGroups && <p className="field-hint">Choosing groups needs groups:u.</p>}
          {groups.map((g) => (
            <label key={g.id} className="check-row">
              <input
                type="checkbox"
                checked={member.has(g.id)}
                onChange={() => {
                  const next = new Set(member)
                  if (next.has(g.id)) next.delete(g.id)
                  else next.add(g.id)
                  setMember(next)
                }}
              />
              {g.name}
            </label>
          ))}
        </fieldset>
      )}
      {!online && <p className="notice notice-warning">{AUTH_SCREENS_TEXT.offlineUserCreate}</p>}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      <div className="actions">
        <button type="submit" className="button button-primary" disabled={busy}>
          Create user
        </button>
      </div>
    </form>
  )
}
