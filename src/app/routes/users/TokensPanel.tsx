/**
 * API tokens (/users?tab=tokens): the list comes from the mirror like every collection; creating and
 * revoking talk to the server directly, because the token is shown exactly once — it must come back
 * from the server while this page is open and must never be stored in the outbox. The new token is
 * held in component state only, with a copy button, and is gone when the panel is closed.
 */
import { Check, Copy, KeyRound, Trash2 } from 'lucide-react'
import { type FormEvent, useMemo, useState } from 'react'
import type { SyncDoc } from '../../../db/types'
import { PermissionSyntaxError, parsePermission } from '../../../shared/permissions'
import { AUTH_SCREENS_TEXT, FEEDBACK_TEXT } from '../../../shared/texts'
import { api } from '../../api/client'
import { NewButton } from '../../components/RecordList'
import { useRows } from '../../data/collection-rows'
import { confirm } from '../../feedback/confirm-store'
import { notifySaved } from '../../feedback/notify'
import { toast } from '../../feedback/toast-store'
import { formatDate, strings, text } from '../../format/values'
import { useCan } from '../../session/use-can'
import { useSession } from '../../session/use-session'
import { onlineOnlyError } from '../../sync-ui/online-only'
import { useServerReachable } from '../../sync-ui/use-server-reachable'

/** Expiry choices; the server allows at most a year. */
const EXPIRY_DAYS = [7, 30, 90, 365] as const

export function TokensPanel() {
  const rows = useRows('tokens')
  const allowed = useCan()
  const online = useServerReachable()
  const { user } = useSession()
  const [creating, setCreating] = useState(false)
  const [shown, setShown] = useState<{ name: string; token: string } | null>(null)
  const now = Date.now()
  const docs = useMemo(
    () => [...(rows?.docs ?? [])].sort((a, b) => text(b.created).localeCompare(text(a.created))),
    [rows],
  )

  const revoke = async (doc: SyncDoc) => {
    // Asked and reported as what it is, a revocation (issue 11), not as a delete.
    const name = `"${text(doc.name)}"`
    const ok = await confirm({
      title: AUTH_SCREENS_TEXT.revokeTitle,
      text: AUTH_SCREENS_TEXT.revokeText(name),
      confirmLabel: AUTH_SCREENS_TEXT.revokeButton,
      cancelLabel: FEEDBACK_TEXT.cancel,
      danger: true,
    })
    if (!ok) return
    try {
      await api.request(`/api/tokens/${encodeURIComponent(doc._id)}`, { method: 'DELETE' })
      toast.success(AUTH_SCREENS_TEXT.revoked(name))
    } catch (e) {
      toast.error(onlineOnlyError('Revoking a token', e))
    }
  }

  return (
    <>
      <header className="screen-head screen-head-row">
        <div>
          <h1 id="page-heading">API tokens</h1>
          <p className="muted">
            A token acts as its owner, limited to the permissions it was given. Send it as
            <code> Authorization: Bearer …</code>
          </p>
        </div>
        <div className="actions">
          {allowed('tokens:c') && (
            <NewButton label="New token" open={creating} onToggle={() => setCreating((v) => !v)} />
          )}
        </div>
      </header>
      {shown && <ShownOnce {...shown} onClose={() => setShown(null)} />}
      {creating && (
        <CreateToken
          online={online}
          onCreated={(name, token) => {
            setCreating(false)
            setShown({ name, token })
          }}
        />
      )}
      {!allowed('tokens:r') ? (
        <p className="muted">Listing tokens needs the permission tokens:r.</p>
      ) : (
        <ul className="token-list" aria-label="API tokens">
          {docs.length === 0 && (
            <li className="muted">{rows === undefined ? 'Loading…' : 'No API tokens yet.'}</li>
          )}
          {docs.map((d) => {
            const expired = Date.parse(text(d.expires)) <= now
            return (
              <li key={d._id} className="panel token-row" data-token={d._id}>
                <KeyRound size={20} aria-hidden="true" />
                <div className="token-main">
                  <strong>{text(d.name)}</strong>
                  {expired && <span className="pill pill-off">Expired</span>}
                  <div className="token-perms">
                    {strings(d.permissions).map((p) => (
                      <code key={p}>{p}</code>
                    ))}
                  </div>
                  <p className="muted token-meta">
                    Owner {text(d.owner)} · created {formatDate(d.created)} · expires {formatDate(d.expires)}{' '}
                    · last used {formatDate(d.lastUsed)}
                  </p>
                </div>
                {(d.owner === user?._id || allowed(`tokens/${d._id}:d`)) && (
                  <button
                    type="button"
                    className="button button-danger-quiet"
                    aria-label={`Revoke ${text(d.name)}`}
                    onClick={() => void revoke(d)}
                  >
                    <Trash2 size={16} aria-hidden="true" /> Revoke
                  </button>
                )}
              </li>
            )
          })}
        </ul>
      )}
    </>
  )
}

function CreateToken({
  online,
  onCreated,
}: {
  online: boolean
  onCreated: (name: string, token: string) => void
}) {
  const [name, setName] = useState('')
  const [perms, setPerms] = useState('')
  const [days, setDays] = useState<number>(30)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const lines = perms
    .split(/[\n,]+/)
    .map((l) => l.trim())
    .filter(Boolean)
  const problems = lines.flatMap((l) => {
    try {
      parsePermission(l)
      return []
    } catch (e) {
      return e instanceof PermissionSyntaxError ? [e.message] : []
    }
  })

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    if (!online) return setError(AUTH_SCREENS_TEXT.needsNetwork('Creating a token'))
    if (!name.trim()) return setError(AUTH_SCREENS_TEXT.tokenNameInvalid)
    if (!lines.length || problems.length)
      return setError(problems[0] ?? AUTH_SCREENS_TEXT.tokenPermissionsInvalid)
    setBusy(true)
    setError(null)
    try {
      const expires = new Date(Date.now() + days * 86_400_000).toISOString()
      const res = await api.request<{ token: string }>('/api/tokens', {
        body: { name: name.trim(), permissions: lines, expires },
      })
      // The server answered (tokens are never queued): saved there, whatever the toolbar says.
      notifySaved(`Token ${name.trim()}`, true)
      onCreated(name.trim(), res.token)
    } catch (err) {
      setError(onlineOnlyError('Creating a token', err))
    } finally {
      setBusy(false)
    }
  }

  return (
    <form className="panel create-form" onSubmit={submit} aria-label="New token" noValidate>
      <div className="form-grid">
        <div className="field">
          <label htmlFor="token-name">Token name</label>
          <input id="token-name" className="input" value={name} onChange={(e) => setName(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="token-expiry">Expires in</label>
          <select
            id="token-expiry"
            className="input"
            value={days}
            onChange={(e) => setDays(Number(e.target.value))}
          >
            {EXPIRY_DAYS.map((d) => (
              <option key={d} value={d}>
                {d} days
              </option>
            ))}
          </select>
        </div>
      </div>
      <div className="field">
        <label htmlFor="token-perms">Permissions (one per line, e.g. products:r)</label>
        <textarea
          id="token-perms"
          className="input mono"
          rows={3}
          value={perms}
          aria-invalid={problems.length > 0}
          onChange={(e) => setPerms(e.target.value)}
        />
        {problems.map((p) => (
          <p key={p} className="field-error">
            {p}
          </p>
        ))}
        <p className="field-hint">The token can never do more than you can; the server checks both.</p>
      </div>
      {!online && (
        <p className="notice notice-warning">{AUTH_SCREENS_TEXT.needsNetwork('Creating a token')}</p>
      )}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      <div className="actions">
        <button type="submit" className="button button-primary" disabled={busy || !online}>
          Create token
        </button>
      </div>
    </form>
  )
}

function ShownOnce({ name, token, onClose }: { name: string; token: string; onClose: () => void }) {
  const [copied, setCopied] = useState(false)
  const copy = async () => {
    await navigator.clipboard.writeText(token)
    setCopied(true)
    toast.success(AUTH_SCREENS_TEXT.copied)
  }
  return (
    <section className="panel token-once" aria-label={`New token ${name}`}>
      <p className="notice notice-warning">{AUTH_SCREENS_TEXT.tokenShownOnce}</p>
      <div className="token-secret">
        <code data-testid="new-token">{token}</code>
        <button type="button" className="button" onClick={() => void copy()}>
          {copied ? <Check size={16} aria-hidden="true" /> : <Copy size={16} aria-hidden="true" />}
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
      <button type="button" className="button button-quiet" onClick={onClose}>
        I have stored it
      </button>
    </section>
  )
}
