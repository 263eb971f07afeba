/**
 * Password of a user: set a new one (PATCH /api/auth/password; one's own needs the current password
 * and returns a new session token, since the server ends all older sessions) or send a reset e-mail
 * (PATCH /api/auth/reset). Both need the network and are never queued. The new password is held to the
 * shared password policy as it is typed (NewPasswordField).
 */
import { type FormEvent, useState } from 'react'
import { AUTH_SCREENS_TEXT, VALIDATION } from '../../../shared/texts'
import { api } from '../../api/client'
import { toast } from '../../feedback/toast-store'
import { setToken } from '../../session/session'
import { onlineOnlyError } from '../../sync-ui/online-only'
import { useServerReachable } from '../../sync-ui/use-server-reachable'
import { NewPasswordField, newPasswordProblem } from './NewPasswordField'

interface Props {
  id: string
  email: string
  own: boolean
  canEdit: boolean
}

export function PasswordCard({ id, email, own, canEdit }: Props) {
  const online = useServerReachable()
  const [oldPassword, setOld] = useState('')
  const [password, setPassword] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  const change = async (e: FormEvent) => {
    e.preventDefault()
    setError(null)
    if (!password.trim()) return setError(VALIDATION.passwordMissing)
    // The shared policy, said before anything is sent (the server checks it again).
    const problem = await newPasswordProblem(password, [id, email])
    if (problem) return setError(problem)
    if (!online) return setError(AUTH_SCREENS_TEXT.needsNetwork('Changing a password'))
    setBusy(true)
    try {
      const res = await api.request<{ token?: string }>('/api/auth/password', {
        method: 'PATCH',
        body: { username: id, password, ...(own ? { oldPassword } : {}) },
      })
      if (own && res.token) await setToken(res.token)
      setOld('')
      setPassword('')
      toast.success(AUTH_SCREENS_TEXT.passwordChanged)
    } catch (err) {
      setError(onlineOnlyError('Changing a password', err))
    } finally {
      setBusy(false)
    }
  }

  const sendReset = async () => {
    setError(null)
    if (!online) return setError(AUTH_SCREENS_TEXT.needsNetwork('Sending a reset e-mail'))
    try {
      const res = await api.request<{ delivery?: string }>('/api/auth/reset', {
        method: 'PATCH',
        body: { email },
      })
      // Without a mail server the server only queues it: say so and why, never "sent" (issue 11).
      if (res?.delivery === 'queued') toast.warning(AUTH_SCREENS_TEXT.resetQueued(email))
      else toast.success(AUTH_SCREENS_TEXT.resetSent(email))
    } catch (err) {
      setError(onlineOnlyError('Sending a reset e-mail', err))
    }
  }

  if (!canEdit) return null
  return (
    <section className="panel" aria-labelledby="password-heading">
      <h2 id="password-heading">Password</h2>
      <form onSubmit={change} noValidate>
        {/* A hidden username lets password managers file the new password under the right account. */}
        <input type="text" autoComplete="username" value={id} readOnly hidden />
        {own && (
          <div className="field">
            <label htmlFor="old-password">Current password</label>
            <input
              id="old-password"
              className="input"
              type="password"
              autoComplete="current-password"
              value={oldPassword}
              onChange={(e) => setOld(e.target.value)}
            />
          </div>
        )}
        <NewPasswordField
          id="new-password"
          label="New password"
          value={password}
          onChange={setPassword}
          context={[id, email]}
        />
        {error && (
          <p className="field-error" role="alert">
            {error}
          </p>
        )}
        {!online && <p className="field-hint">{AUTH_SCREENS_TEXT.needsNetwork('Changing a password')}</p>}
        <div className="actions">
          <button type="submit" className="button button-primary" disabled={busy || !online}>
            Set password
          </button>
          {email && (
            <button type="button" className="button" disabled={!online} onClick={() => void sendReset()}>
              Send reset e-mail
            </button>
          )}
        </div>
      </form>
    </section>
  )
}
