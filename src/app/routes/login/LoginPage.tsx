/**
 * Login (SPEC §2 /login, §5): username and password, both trimmed; a second step for the
 * authenticator code when the server answers totp_required; errors inline. Afterwards the user goes to
 * the `redirect` query. Hosted mode (redirect=postmessage&host=<origin>) logs in for another site: the
 * token is posted to window.opener for that origin only and the window closes; this console's own
 * session is left as it was. The origin must be one the server knows (GET /api/auth/known-host): the
 * form is not even shown for another, since any site can open this page with its own origin as host
 * and would otherwise collect the token of whoever logs in (issue 10 #5).
 */
import { KeyRound, LoaderCircle } from 'lucide-react'
import { type FormEvent, useEffect, useId, useRef, useState } from 'react'
import { useLocation, useSearch } from 'wouter'
import { BROWSER_SECURITY_TEXT, SHELL_TEXT, VALIDATION } from '../../../shared/texts'
import { ApiError, api } from '../../api/client'
import { isHostedLogin, safeRedirect } from '../../routing/login-redirect'
import { type SessionResponse, setToken } from '../../session/session'
import { useSite } from '../../session/use-session'

interface LoginResponse extends SessionResponse {
  token: string
}

/** The origin a hosted login returns to, or null when `host` is not a usable http(s) origin. */
export function hostedOrigin(host: string | null): string | null {
  if (!host) return null
  try {
    const url = new URL(host)
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null
  } catch {
    return null
  }
}

type HostCheck = 'checking' | 'known' | 'unknown' | 'failed'

/** Asks the server whether `host` may receive a token; 'known' is the only answer that allows it. */
function useHostCheck(host: string | null): HostCheck {
  const [state, setState] = useState<HostCheck>('checking')
  useEffect(() => {
    if (!host) return
    let live = true
    setState('checking')
    api
      .get<{ known?: unknown }>('/api/auth/known-host', { query: { host } })
      .then((res) => live && setState(res?.known === true ? 'known' : 'unknown'))
      .catch(() => live && setState('failed'))
    return () => {
      live = false
    }
  }, [host])
  return state
}

const HOST_CHECK_TEXT: Record<Exclude<HostCheck, 'known'>, (host: string) => string> = {
  checking: () => BROWSER_SECURITY_TEXT.hostedChecking,
  unknown: BROWSER_SECURITY_TEXT.hostedUnknownHost,
  failed: () => BROWSER_SECURITY_TEXT.hostedCheckFailed,
}

function isTotpRequired(err: ApiError): boolean {
  return err.code === 'totp_required' || (err.body as { totp?: unknown } | null)?.totp === true
}

export function LoginPage() {
  const site = useSite()
  const [, navigate] = useLocation()
  const search = new URLSearchParams(useSearch())
  const hosted = isHostedLogin(search)
  const host = hosted ? hostedOrigin(search.get('host')) : null
  const hostCheck = useHostCheck(host)
  // A hosted login shows its form only for an origin the server knows.
  const blocked = hosted && (!host || hostCheck !== 'known')
  const [username, setUsername] = useState('')
  const [password, setPassword] = useState('')
  const [totp, setTotp] = useState('')
  const [step, setStep] = useState<'credentials' | 'totp'>('credentials')
  const [error, setError] = useState<string | null>(hosted && !host ? SHELL_TEXT.hostedBadHost : null)
  const [busy, setBusy] = useState(false)
  const errorId = useId()
  const totpRef = useRef<HTMLInputElement>(null)

  const finish = async (res: LoginResponse) => {
    if (hosted) {
      if (!host) return setError(SHELL_TEXT.hostedBadHost)
      if (hostCheck !== 'known') return setError(BROWSER_SECURITY_TEXT.hostedUnknownHost(host))
      if (!window.opener) return setError(SHELL_TEXT.hostedNoOpener)
      ;(window.opener as Window).postMessage({ token: res.token }, host)
      window.close()
      return
    }
    await setToken(res.token, res)
    navigate(safeRedirect(search.get('redirect')), { replace: true })
  }

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    const id = username.trim()
    const pw = password.trim()
    if (!id || !pw) return setError(VALIDATION.loginMissing)
    if (blocked) return
    setBusy(true)
    setError(null)
    try {
      const body: Record<string, string> = { username: id, password: pw }
      if (step === 'totp') body.totp = totp.trim()
      await finish(await api.request<LoginResponse>('/api/auth/login', { body }))
    } catch (err) {
      if (err instanceof ApiError && step === 'credentials' && isTotpRequired(err)) {
        setStep('totp')
        setTimeout(() => totpRef.current?.focus(), 0)
      } else if (err instanceof ApiError) {
        setError(err.message)
      } else {
        setError(SHELL_TEXT.serverUnreachable)
      }
    } finally {
      setBusy(false)
    }
  }

  const describedBy = error ? errorId : undefined
  return (
    <div className="login-page">
      <div className="login-card">
        <div className="login-brand">
          {site.logo ? (
            <img src={site.logo} alt="" className="brand-logo" />
          ) : (
            <span className="brand-mark brand-mark-lg" aria-hidden="true">
              {site.title.charAt(0).toUpperCase()}
            </span>
          )}
          <span className="login-site">{site.title}</span>
        </div>
        <h1>{step === 'totp' ? 'Two-step verification' : 'Log in'}</h1>
        <p className="login-sub">
          {step === 'totp'
            ? SHELL_TEXT.totpPrompt
            : host
              ? `Log in to continue to ${host}`
              : (site.description ?? 'Log in to manage your platform.')}
        </p>
        {hosted && host && hostCheck !== 'known' && (
          <p
            className={hostCheck === 'checking' ? 'login-sub' : 'form-error'}
            role={hostCheck === 'checking' ? 'status' : 'alert'}
          >
            {HOST_CHECK_TEXT[hostCheck](host)}
          </p>
        )}
        {blocked && !host && error && (
          <p id={errorId} className="form-error" role="alert">
            {error}
          </p>
        )}
        {!blocked && (
          <form onSubmit={submit} noValidate>
            {step === 'credentials' ? (
              <>
                <div className="field">
                  <label htmlFor="login-username">Username</label>
                  <input
                    id="login-username"
                    name="username"
                    autoComplete="username"
                    autoCapitalize="none"
                    spellCheck={false}
                    value={username}
                    onChange={(e) => setUsername(e.target.value)}
                    aria-describedby={describedBy}
                    aria-invalid={error ? true : undefined}
                    // biome-ignore lint/a11y/noAutofocus: the only task on this page
                    autoFocus
                  />
                </div>
                <div className="field">
                  <label htmlFor="login-password">Password</label>
                  <input
                    id="login-password"
                    name="password"
                    type="password"
                    autoComplete="current-password"
                    value={password}
                    onChange={(e) => setPassword(e.target.value)}
                    aria-describedby={describedBy}
                    aria-invalid={error ? true : undefined}
                  />
                </div>
              </>
            ) : (
              <div className="field">
                <label htmlFor="login-totp">Authenticator code</label>
                <input
                  ref={totpRef}
                  id="login-totp"
                  name="totp"
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  pattern="[0-9]*"
                  maxLength={10}
                  value={totp}
                  onChange={(e) => setTotp(e.target.value)}
                  aria-describedby={describedBy}
                />
              </div>
            )}
            {error && (
              <p id={errorId} className="form-error" role="alert">
                {error}
              </p>
            )}
            <button type="submit" className="button button-primary button-block" disabled={busy}>
              {busy ? (
                <LoaderCircle className="spin" size={18} aria-hidden="true" />
              ) : (
                step === 'totp' && <KeyRound size={18} aria-hidden="true" />
              )}
              {step === 'totp' ? 'Verify' : 'Log in'}
            </button>
            {step === 'totp' && (
              <button
                type="button"
                className="button button-quiet button-block"
                onClick={() => {
                  setStep('credentials')
                  setTotp('')
                  setError(null)
                }}
              >
                Back
              </button>
            )}
          </form>
        )}
      </div>
    </div>
  )
}
