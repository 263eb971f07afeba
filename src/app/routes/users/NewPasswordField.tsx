/**
 * A field where a NEW password is typed (New user, Set password): it says what the shared password
 * policy (src/shared/password-policy.ts) refuses as the user types, under the field and tied to it by
 * aria-describedby, so nobody has to submit to learn it. The length rules answer at once; the
 * common-password dictionary is fetched as its own chunk the first time the field is used, never with
 * the login page. The server checks the same policy again, whatever the form said.
 */
import { useEffect, useState } from 'react'
import {
  checkPassword,
  loadPasswordScorer,
  type PasswordScorer,
  passwordLengthProblem,
  passwordProblem,
} from '../../../shared/password-policy'

/** What the policy says about `password` for an account with these words; null while empty or fine. */
export function usePasswordProblem(password: string, context: readonly string[]): string | null {
  const [scorer, setScorer] = useState<PasswordScorer | null>(null)
  const typed = password.trim()
  useEffect(() => {
    if (!typed || scorer) return
    let live = true
    loadPasswordScorer()
      .then((s) => {
        if (live) setScorer(() => s)
      })
      .catch(() => {
        // Offline before the chunk was cached: the length rules still answer, the server the rest.
      })
    return () => {
      live = false
    }
  }, [typed, scorer])
  if (!typed) return null
  return scorer ? passwordProblem(typed, context, scorer) : passwordLengthProblem(typed)
}

/** The check a form runs on submit: waits for the dictionary when it has not arrived yet. */
export async function newPasswordProblem(
  password: string,
  context: readonly string[],
): Promise<string | null> {
  try {
    return await checkPassword(password.trim(), context)
  } catch {
    // The dictionary could not be fetched: the length rules here, the server decides the rest.
    return passwordLengthProblem(password.trim())
  }
}

interface Props {
  id: string
  label: string
  value: string
  onChange: (value: string) => void
  /** The account's own words (username, name, e-mail): a password made of them is refused. */
  context: readonly string[]
  disabled?: boolean
}

export function NewPasswordField({ id, label, value, onChange, context, disabled }: Props) {
  const problem = usePasswordProblem(value, context)
  const problemId = `${id}-problem`
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        className="input"
        type="password"
        autoComplete="new-password"
        disabled={disabled}
        value={value}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? problemId : undefined}
        onChange={(e) => onChange(e.target.value)}
      />
      {problem && (
        <p id={problemId} className="field-error" aria-live="polite">
          {problem}
        </p>
      )}
    </div>
  )
}
