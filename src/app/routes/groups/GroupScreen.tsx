/**
 * One group (SPEC §2 /groups/{id}): name, description, members and the permission editor with its
 * preview. One edit state for all of it; Save (toolbar or Ctrl/Cmd+S) writes the group and every
 * changed membership through the outbox, so it works offline, and reports "X / Y changes were saved
 * successfully" when more than the group itself changed. Entries that do not parse block the save.
 * Both are computed against the version the edit started from (its base): only the fields and the
 * memberships the user changed are written, the group patch with that version as base (If-Match), so
 * a concurrent change by someone else is kept or reported, never reverted.
 *
 * Delegated authority (issue 35): an editor may grant only what they hold. What the edit hands out
 * compared with that base (shared notGrantable, the server's rule in collections/routes.ts) is
 * checked against the session's permissions before saving, listed next to the permissions and blocks
 * Save; a refusal the server sent later for a queued save shows there too (useSaveRefusal).
 */
import { useMemo } from 'react'
import type { SyncDoc } from '../../../db/types'
import { notGrantable, parsePermissions } from '../../../shared/permissions'
import { DELEGATION_TEXT, SCREENS_TEXT } from '../../../shared/texts'
import { RecordScreen } from '../../components/RecordScreen'
import { RefusalNote } from '../../components/RefusalNote'
import { useRow, useRows } from '../../data/collection-rows'
import { useMutate } from '../../data/sync-context'
import { useSaveRefusal } from '../../data/use-save-refusal'
import type { WrittenDoc } from '../../data/write-outcome'
import { notifyBatchSaved, notifySaved } from '../../feedback/notify'
import { toast } from '../../feedback/toast-store'
import { strings, text } from '../../format/values'
import { useEditState } from '../../hooks/use-edit-state'
import type { ScreenProps } from '../../routing/table'
import { NoAccess } from '../../session/NoAccess'
import { useCan } from '../../session/use-can'
import { useSession } from '../../session/use-session'
import { useBreadcrumbs, usePageTitle, useSaveAction } from '../../shell/page-chrome'
import { useServerReachable } from '../../sync-ui/use-server-reachable'
import { PermissionEditor } from './PermissionEditor'
import { checkEntries } from './permission-preview'
import '../../components/ui.css'
import '../../components/records.css'
import { countOf } from '../../../shared/plural'

interface GroupForm {
  name: string
  description: string
  permissions: string[]
  members: string[]
}

const formOf = (doc: SyncDoc | undefined, members: string[]): GroupForm => ({
  name: text(doc?.name),
  description: text(doc?.description),
  permissions: strings(doc?.permissions),
  members,
})

export function GroupScreen({ params }: ScreenProps) {
  const id = params.id ?? ''
  const allowed = useCan()
  usePageTitle(id)
  useBreadcrumbs([{ label: 'Groups', href: '/groups' }, id])
  if (!allowed(`groups/${id}:r`)) return <NoAccess section={`Group ${id}`} needed={`groups/${id}:r`} />
  return <GroupPage id={id} />
}

function GroupPage({ id }: { id: string }) {
  const row = useRow('groups', id)
  const users = useRows('users')
  const allowed = useCan()
  const mutate = useMutate()
  const doc = row?.doc
  const memberIds = useMemo(
    () =>
      (users?.docs ?? [])
        .filter((u) => strings(u.groups).includes(id))
        .map((u) => u._id)
        .sort(),
    [users, id],
  )
  const original = formOf(doc, memberIds)
  const edit = useEditState<GroupForm, SyncDoc | null>(original, { version: doc ?? null })
  const canEdit = allowed(`groups/${id}:u`)
  const reachable = useServerReachable()
  const entries = edit.value.permissions
  const { permissions: held } = useSession()
  const basePermissions = edit.base.permissions
  const beyondOwn = useMemo(
    () => notGrantable(parsePermissions(held), basePermissions, entries.map((e) => e.trim()).filter(Boolean)),
    [held, basePermissions, entries],
  )
  const refusal = useSaveRefusal('groups', id)
  const invalid = checkEntries(entries.filter((e) => e.trim())).some((c) => c.error) || beyondOwn.length > 0

  const save = async () => {
    if (!edit.modified || invalid) return
    const v = edit.value
    // Relative to the version the edit started from: what only someone else changed is not sent.
    const b = edit.base
    const permissions = v.permissions.map((e) => e.trim()).filter(Boolean)
    const writes: Array<() => Promise<unknown>> = []
    const written: WrittenDoc[] = []
    const patch: Record<string, unknown> = {}
    if (v.name !== b.name) patch.name = v.name.trim()
    if (v.description !== b.description) patch.description = v.description
    if (permissions.join('\n') !== b.permissions.join('\n')) patch.permissions = permissions
    let savedGroup: SyncDoc | null = null
    if (Object.keys(patch).length) {
      writes.push(async () => {
        savedGroup = await mutate.patch('groups', id, patch, { base: edit.baseVersion ?? undefined })
        written.push({ collection: 'groups', id })
      })
    }
    const before = new Set(b.members)
    const after = new Set(v.members)
    for (const u of users?.docs ?? []) {
      if (before.has(u._id) === after.has(u._id)) continue
      const groups = strings(u.groups).filter((g) => g !== id)
      if (after.has(u._id)) groups.push(id)
      writes.push(async () => {
        await mutate.patch('users', u._id, { groups })
        written.push({ collection: 'users', id: u._id })
      })
    }
    const results = await Promise.allSettled(writes.map((w) => w()))
    const done = results.filter((r) => r.status === 'fulfilled').length
    const failure = results.find((r) => r.status === 'rejected')
    if (done === results.length) {
      const group = savedGroup as SyncDoc | null
      edit.commit(group ? formOf(group, v.members) : { ...v, permissions }, group ?? undefined)
    }
    if (results.length === 1 && done === 1) notifySaved(`Group ${id}`, reachable, written[0])
    else notifyBatchSaved(done, results.length, 'changes', reachable, written)
    if (failure) toast.error(String((failure as PromiseRejectedResult).reason?.message ?? failure))
  }
  useSaveAction(doc && canEdit ? save : null, { disabled: !edit.modified || invalid })

  const toggleMember = (u: string) =>
    edit.setValue((v) => ({
      ...v,
      members: v.members.includes(u) ? v.members.filter((x) => x !== u) : [...v.members, u].sort(),
    }))

  return (
    <RecordScreen
      placesRefusals
      collection="groups"
      id={id}
      row={row}
      edit={edit}
      noun="group"
      canEdit={canEdit}
      listHref="/groups"
      goneText={SCREENS_TEXT.groupGone}
      className="group-screen"
      canDelete={allowed(`groups/${id}:d`)}
      meta={() => (
        <>
          {id} · {countOf(memberIds.length, 'member')}
        </>
      )}
    >
      {() => (
        <>
          <div className="card-columns">
            <section className="panel" aria-labelledby="group-details-heading">
              <h2 id="group-details-heading">Details</h2>
              <RefusalNote refusal={refusal} field={null} fields={['permissions']} />
              <div className="field">
                <label htmlFor="group-name">Name</label>
                <input
                  id="group-name"
                  className="input"
                  disabled={!canEdit}
                  value={edit.value.name}
                  onChange={(e) => edit.setValue((v) => ({ ...v, name: e.target.value }))}
                />
              </div>
              <div className="field">
                <label htmlFor="group-description">Description</label>
                <textarea
                  id="group-description"
                  className="input"
                  rows={3}
                  disabled={!canEdit}
                  value={edit.value.description}
                  onChange={(e) => edit.setValue((v) => ({ ...v, description: e.target.value }))}
                />
              </div>
              <fieldset className="check-list member-list" disabled={!canEdit || !allowed('users:u')}>
                <legend>Members</legend>
                {(users?.docs ?? []).map((u) => (
                  <label key={u._id} className="check-row">
                    <input
                      type="checkbox"
                      checked={edit.value.members.includes(u._id)}
                      onChange={() => toggleMember(u._id)}
                    />
                    {text(u.name) || u._id} <span className="muted">{u._id}</span>
                  </label>
                ))}
              </fieldset>
            </section>
            <section className="panel perm-panel" aria-labelledby="group-perms-heading">
              <h2 id="group-perms-heading">Permissions</h2>
              <PermissionEditor
                entries={entries}
                disabled={!canEdit}
                onChange={(permissions) => edit.setValue((v) => ({ ...v, permissions }))}
              />
              {canEdit && beyondOwn.length > 0 && (
                <p className="field-error" role="alert" data-testid="grant-beyond-own">
                  {DELEGATION_TEXT.grantBeyondOwn(beyondOwn)}
                </p>
              )}
              <RefusalNote refusal={refusal} field="permissions" />
            </section>
          </div>
        </>
      )}
    </RecordScreen>
  )
}
