/**
 * Two-factor authentication (docs/operating/auth.md TOTP): "Set up" asks the server for a secret and its
 * otpauth:// address, shown as a QR code (the `qrcode` library renders it locally, no outside service
 * sees the secret) and as a key to type; a code from the app confirms it. "Remove" turns it off; on
 * one's own account it needs the current password (the server's re-authentication rule, so a stolen
 * session cannot strip the second factor). The secret lives only in this component while setting up;
 * everything needs the network.
 */
import QRCode from 'qrcode'
import { type FormEvent, useEffect, useState } from 'react'
import { AUTH_SCREENS_TEXT, SECURITY_TEXT } from '../../../shared/texts'
import { api } from '../../api/client'
import { confirm } from '../../feedback/confirm-store'
import { toast } from '../../feedback/toast-store'
import { onlineOnlyError } from '../../sync-ui/online-only'
import { useServerReachable } from '../../sync-ui/use-server-reachable'

interface Props {
  id: string
  enabled: boolean
  own: boolean
  canEdit: boolean
}

export function TotpCard({ id, enabled, own, canEdit }: Props) {
  const online = useServerReachable()
  const [setup, setSetup] = useState<{ secret: string; uri: string } | null>(null)
  const [qr, setQr] = useState<string | null>(null)
  const [code, setCode] = useState('')
  const [currentPassword, setCurrentPassword] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  // The server's answer is shown until the mirror catches up with the user document.
  const [state, setState] = useState<boolean | null>(null)
  const on = state ?? enabled
  const path = `/api/auth/totp/${encodeURIComponent(id)}`

  const [seen, setSeen] = useState(enabled)
  if (seen !== enabled) {
    // The mirror caught up: its value is the truth again.
    setSeen(enabled)
    setState(null)
  }
  useEffect(() => {
    if (!setup) return setQr(null)
    let live = true
    void QRCode.toDataURL(setup.uri, { margin: 1, width: 200 }).then((url) => live && setQr(url))
    return () => {
      live = false
    }
  }, [setup])

  const run = async (what: string, call: () => Promise<void>) => {
    setError(null)
    if (!online) return setError(AUTH_SCREENS_TEXT.needsNetwork(what))
    setBusy(true)
    try {
      await call()
    } catch (e) {
      setError(onlineOnlyError(what, e))
    } finally {
      setBusy(false)
    }
  }

  const start = () =>
    run('Setting up two-factor authentication', async () => {
      setSetup(
        await api.request<{ secret: string; uri: string }>(path, {
          method: 'PATCH',
          body: { method: 'totp' },
        }),
      )
      setCode('')
    })

  const verify = (e: FormEvent) => {
    e.preventDefault()
    void run('Setting up two-factor authentication', async () => {
      await api.request(path, { method: 'PATCH', body: { method: 'totp', totp: code.replace(/\s/g, '') } })
      setSetup(null)
      setState(true)
      toast.success(AUTH_SCREENS_TEXT.totpEnabled)
    })
  }

  const remove = async () => {
    if (own && !currentPassword.trim()) return setError(SECURITY_TEXT.reauthRequired)
    const ok = await confirm({
      title: 'Remove two-factor authentication',
      text: `Logging in as ${id} will then need only the password.`,
      confirmLabel: 'Remove',
      cancelLabel: 'Cancel',
      danger: true,
    })
    if (!ok) return
    await run('Removing two-factor authentication', async () => {
      await api.request(path, { method: 'DELETE', ...(own ? { body: { password: currentPassword } } : {}) })
      setCurrentPassword('')
      setState(false)
      toast.success(AUTH_SCREENS_TEXT.totpDisabled)
    })
  }

  return (
    <section className="panel" aria-labelledby="totp-heading">
      <h2 id="totp-heading">Two-factor authentication</h2>
      <p>
        Status: <strong data-testid="totp-status">{on ? 'On' : 'Off'}</strong>
      </p>
      {canEdit && !setup && on && own && (
        <div className="field">
          <label htmlFor="totp-current-password">Current password</label>
          <input
            id="totp-current-password"
            className="input"
            type="password"
            autoComplete="current-password"
            value={currentPassword}
            onChange={(e) => setCurrentPassword(e.target.value)}
          />
        </div>
      )}
      {canEdit && !setup && (
        <div className="actions">
          {on ? (
            <button
              type="button"
              className="button button-danger-quiet"
              disabled={busy || !online}
              onClick={() => void remove()}
            >
              Remove two-factor authentication
            </button>
          ) : (
            <button
              type="button"
              className="button button-primary"
              disabled={busy || !online}
              onClick={() => void start()}
            >
              Set up two-factor authentication
            </button>
          )}
        </div>
      )}
      {setup && (
        <form className="totp-setup" onSubmit={verify} noValidate>
          <p>
            Scan the code with an authenticator app, or type the key, then enter the 6-digit code it shows.
          </p>
          {qr && (
            <img
              className="totp-qr"
              src={qr}
              alt="QR code for the authenticator app"
              width={200}
              height={200}
            />
          )}
          <div className="field">
            <label htmlFor="totp-key">Key</label>
            <input
              id="totp-key"
              className="input mono"
              readOnly
              value={setup.secret}
              onFocus={(e) => e.target.select()}
            />
          </div>
          <div className="field">
            <label htmlFor="totp-code">Code from the app</label>
            <input
              id="totp-code"
              className="input mono"
              inputMode="numeric"
              autoComplete="one-time-code"
              value={code}
              onChange={(e) => setCode(e.target.value)}
            />
          </div>
          <div className="actions">
            <button type="submit" className="button button-primary" disabled={busy || code.trim().length < 6}>
              Confirm
            </button>
            <button type="button" className="button button-quiet" onClick={() => setSetup(null)}>
              Cancel
            </button>
          </div>
        </form>
      )}
      {!online && (
        <p className="field-hint">{AUTH_SCREENS_TEXT.needsNetwork('Changing two-factor authentication')}</p>
      )}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </section>
  )
}
