/**
 * One user (SPEC §2 /users/{id}; the avatar menu's Account link lands here). The profile — name,
 * e-mail, group membership — is an edit state saved through the outbox with the toolbar's Save button
 * or Ctrl/Cmd+S, so it works offline. The picture, the password and TOTP are separate cards that call
 * the server directly and say so when there is no network, since they carry secrets or files.
 * The profile patch holds only the fields the user changed relative to the version they opened, with
 * that version as the write's base (If-Match), so someone else's change meanwhile is never reverted.
 */
import { useState } from 'react'
import type { SyncDoc } from '../../../db/types'
import { AUTH_SCREENS_TEXT, SCREENS_TEXT, SECURITY_TEXT } from '../../../shared/texts'
import { api } from '../../api/client'
import { CallButton } from '../../components/CallButton'
import { RecordScreen } from '../../components/RecordScreen'
import { useRow, useRows } from '../../data/collection-rows'
import { useMutate } from '../../data/sync-context'
import { notifySaved } from '../../feedback/notify'
import { toast } from '../../feedback/toast-store'
import { formatDate, strings, text } from '../../format/values'
import { useEditState } from '../../hooks/use-edit-state'
import type { ScreenProps } from '../../routing/table'
import { NoAccess } from '../../session/NoAccess'
import { useCan } from '../../session/use-can'
import { useSession } from '../../session/use-session'
import { useBreadcrumbs, usePageTitle, useSaveAction } from '../../shell/page-chrome'
import { useServerReachable } from '../../sync-ui/use-server-reachable'
import { PasswordCard } from './PasswordCard'
import { TotpCard } from './TotpCard'
import { UserPicture } from './UserPicture'
import '../../components/ui.css'
import '../../components/records.css'

interface Profile {
  name: string
  email: string
  groups: string[]
}

const profileOf = (doc: SyncDoc | undefined): Profile => ({
  name: text(doc?.name),
  email: text(doc?.email),
  groups: strings(doc?.groups).sort(),
})

export function UserScreen({ params }: ScreenProps) {
  const id = params.id ?? ''
  const { user } = useSession()
  const allowed = useCan()
  const own = user?._id === id
  usePageTitle(id)
  useBreadcrumbs([{ label: 'Users', href: '/users' }, id])
  if (!own && !allowed(`users/${id}:r`)) return <NoAccess section={`User ${id}`} needed={`users/${id}:r`} />
  return <UserPage id={id} own={own} />
}

function UserPage({ id, own }: { id: string; own: boolean }) {
  const row = useRow('users', id)
  const groups = useRows('groups')
  const allowed = useCan()
  const mutate = useMutate()
  const reachable = useServerReachable()
  const doc = row?.doc
  const original = profileOf(doc)
  const edit = useEditState<Profile, SyncDoc | null>(original, { version: doc ?? null })
  // The server's rule (docs/decisions/security.md): everyone edits their own name and e-mail;
  // membership needs users/{id}:u AND groups:u, also on one's own profile.
  const canEdit = own || allowed(`users/${id}:u`)
  const canGroups = allowed(`users/${id}:u`) && allowed('groups:u')

  // One's own e-mail is where reset links go: the server wants the current password with a change.
  const [currentPassword, setCurrentPassword] = useState('')
  const ownEmailChanged = own && edit.value.email.trim() !== edit.base.email.trim()

  const save = async () => {
    if (!edit.modified) return
    const v = edit.value
    // Relative to the version the edit started from: a field only someone else changed is not sent.
    const b = edit.base
    const patch: Record<string, unknown> = {}
    if (v.name !== b.name) patch.name = v.name.trim() || null
    if (v.email !== b.email) patch.email = v.email.trim() || null
    if (v.groups.join() !== b.groups.join()) patch.groups = v.groups
    if (own && patch.email !== undefined) return saveOwnEmail(patch)
    try {
      const saved = await mutate.patch('users', id, patch, { base: edit.baseVersion ?? undefined })
      edit.commit(profileOf(saved), saved)
      notifySaved(`User ${id}`, reachable, { collection: 'users', id })
    } catch (e) {
      toast.error(e instanceof Error ? e.message : String(e))
    }
  }
  /**
   * Sent straight to the server, never through the outbox: the password must not be kept on the
   * device, so this change needs the network (the mirror then gets it by sync).
   */
  const saveOwnEmail = async (patch: Record<string, unknown>) => {
    if (!currentPassword.trim()) return toast.error(SECURITY_TEXT.reauthRequired)
    if (!reachable) return toast.error(AUTH_SCREENS_TEXT.needsNetwork('Changing your e-mail'))
    try {
      const saved = await api.request<SyncDoc>(`/api/users/${encodeURIComponent(id)}`, {
        method: 'PATCH',
        body: { ...patch, currentPassword },
      })
      setCurrentPassword('')
      edit.commit(profileOf(saved), saved)
      // The server answered: this one is never only on the device.
      notifySaved(`User ${id}`, true)
    } catch (e) {
      toast.error(e instanceof Error ? e.message : String(e))
    }
  }
  useSaveAction(doc && canEdit ? save : null, { disabled: !edit.modified })

  const toggleGroup = (g: string) =>
    edit.setValue((v) => ({
      ...v,
      groups: v.groups.includes(g) ? v.groups.filter((x) => x !== g) : [...v.groups, g].sort(),
    }))

  return (
    <RecordScreen
      collection="users"
      id={id}
      row={row}
      edit={edit}
      noun="user"
      canEdit={canEdit}
      listHref="/users"
      goneText={SCREENS_TEXT.userGone}
      className="user-screen"
      canDelete={allowed(`users/${id}:d`) && !own}
      actions={own ? undefined : <CallButton to={[id]} />}
      meta={(d) => (
        <>
          {id} · last login {formatDate(d.lastLogin)}
        </>
      )}
    >
      {(doc) => (
        <>
          <div className="card-columns">
            <section className="panel" aria-labelledby="profile-heading">
              <h2 id="profile-heading">Profile</h2>
              <div className="field">
                <label htmlFor="user-name">Name</label>
                <input
                  id="user-name"
                  className="input"
                  disabled={!canEdit}
                  value={edit.value.name}
                  onChange={(e) => edit.setValue((v) => ({ ...v, name: e.target.value }))}
                />
              </div>
              <div className="field">
                <label htmlFor="user-email">E-mail</label>
                <input
                  id="user-email"
                  className="input"
                  type="email"
                  disabled={!canEdit}
                  value={edit.value.email}
                  onChange={(e) => edit.setValue((v) => ({ ...v, email: e.target.value }))}
                />
              </div>
              {ownEmailChanged && (
                <div className="field">
                  <label htmlFor="user-email-password">Current password</label>
                  <input
                    id="user-email-password"
                    className="input"
                    type="password"
                    autoComplete="current-password"
                    aria-describedby="user-email-password-hint"
                    value={currentPassword}
                    onChange={(e) => setCurrentPassword(e.target.value)}
                  />
                  <p id="user-email-password-hint" className="field-hint">
                    {SECURITY_TEXT.reauthRequired}
                  </p>
                </div>
              )}
              <fieldset className="check-list" disabled={!canGroups}>
                <legend>Groups</legend>
                {(groups?.docs ?? []).map((g) => (
                  <label key={g._id} className="check-row">
                    <input
                      type="checkbox"
                      checked={edit.value.groups.includes(g._id)}
                      onChange={() => toggleGroup(g._id)}
                    />
                    {text(g.name) || g._id}
                  </label>
                ))}
                {groups?.docs.length === 0 && <p className="muted">No groups yet.</p>}
                {!canGroups && canEdit && (
                  <p className="field-hint">Changing membership needs users/{id}:u and groups:u.</p>
                )}
              </fieldset>
            </section>
            <UserPicture doc={doc} own={own} canEdit={canEdit} />
            <PasswordCard id={id} email={text(doc.email)} own={own} canEdit={canEdit} />
            <TotpCard id={id} enabled={doc.totp === true} own={own} canEdit={canEdit} />
          </div>
        </>
      )}
    </RecordScreen>
  )
}
