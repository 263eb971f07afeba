/**
 * One action (/actions/{id}, issue 15): its fields, trigger and script (CodeMirror with host API
 * completion), limits and run-as on the left; the debug panel and the live run history on the right
 * (stacked on a phone). Save (toolbar or Ctrl/Cmd+S) writes only the changed fields through the
 * outbox, so editing works offline; running needs the server and says so. Heading, Undo and Delete
 * come from the shared RecordScreen. An edit that would lend rights the user lacks (run as someone
 * else, watch what its run-as user cannot read) says so beside the field and cannot be saved, and the
 * server's refusal of a queued save shows there too; a run stopped by a budget is announced on top.
 */
import { useMemo, useState } from 'react'
import type { SyncDoc } from '../../../db/types'
import { ACTION_LIMITS } from '../../../shared/actions'
import { grouped } from '../../../shared/plural'
import { ACTIONS_CONSOLE_TEXT } from '../../../shared/texts'
import { RecordScreen } from '../../components/RecordScreen'
import { RefusalNote } from '../../components/RefusalNote'
import { useMutate } from '../../data/sync-context'
import { useSaveRefusal } from '../../data/use-save-refusal'
import { notifySaved } from '../../feedback/notify'
import { toast } from '../../feedback/toast-store'
import { useEditState } from '../../hooks/use-edit-state'
import type { ScreenProps } from '../../routing/table'
import { NoAccess } from '../../session/NoAccess'
import { useCan } from '../../session/use-can'
import { useSession } from '../../session/use-session'
import { useBreadcrumbs, usePageTitle, useSaveAction } from '../../shell/page-chrome'
import { useServerReachable } from '../../sync-ui/use-server-reachable'
import { ACTIONS, useAction, useRuns } from './action-data'
import { type ActionForm, formOf, lackingOf, patchOf, problemsOf, REFUSAL_FIELDS } from './action-form'
import { BudgetNotice } from './BudgetNotice'
import { DebugPanel } from './DebugPanel'
import { RunHistory } from './RunHistory'
import { ScriptField } from './ScriptField'
import { Text, TriggerFields } from './TriggerFields'
import { TriggerBadge } from './triggers'
import '../../components/ui.css'
import '../../components/records.css'
import './actions.css'

export function ActionScreen({ params }: ScreenProps) {
  const id = params.id ?? ''
  const allowed = useCan()
  usePageTitle(`Action ${id}`)
  useBreadcrumbs([{ label: 'Actions', href: '/actions' }, id])
  if (!allowed(`${ACTIONS}/${id}:r`)) return <NoAccess section={`Action ${id}`} needed={`actions/${id}:r`} />
  return <ActionPage id={id} />
}

function ActionPage({ id }: { id: string }) {
  const row = useAction(id)
  const doc = row?.doc
  const original = useMemo(() => formOf(doc), [doc])
  const edit = useEditState<ActionForm, SyncDoc | null>(original, { version: doc ?? null })
  const allowed = useCan()
  const mutate = useMutate()
  const canEdit = allowed(`${ACTIONS}/${id}:u`)
  const reachable = useServerReachable()
  const saver = useSession().user?._id ?? ''
  const lacking = lackingOf(edit.base, edit.value, saver, allowed)
  const problems = { ...problemsOf(edit.value), ...lacking }
  const invalid = Object.keys(problems).length > 0
  const refusal = useSaveRefusal(ACTIONS, id)
  const live = allowed('action-runs:r')
  const runs = useRuns(id, live)
  const [goTo, setGoTo] = useState<{ line: number } | null>(null)
  const set =
    <K extends keyof ActionForm>(key: K) =>
    (value: ActionForm[K]) =>
      edit.setValue((v) => ({ ...v, [key]: value }))

  const save = async () => {
    if (!edit.modified || invalid) return
    try {
      const saved = await mutate.patch(ACTIONS, id, patchOf(edit.base, edit.value), {
        base: edit.baseVersion ?? undefined,
      })
      edit.commit(formOf(saved), saved)
      // The server may be out of reach while the browser still reports a link: say where it went.
      notifySaved(`Action ${id}`, reachable, { collection: ACTIONS, id })
    } catch (e) {
      toast.error(e instanceof Error ? e.message : String(e))
    }
  }
  useSaveAction(doc && canEdit ? save : null, { disabled: !edit.modified || invalid })
  const form = edit.value

  return (
    <RecordScreen
      placesRefusals
      collection={ACTIONS}
      id={id}
      row={row}
      edit={edit}
      noun="action"
      listHref="/actions"
      goneText={ACTIONS_CONSOLE_TEXT.gone}
      className="action-screen"
      canDelete={allowed(`${ACTIONS}/${id}:d`)}
      meta={(d) => (
        <>
          {id} · <TriggerBadge type={(d.trigger as { type?: string } | undefined)?.type} />
          {d.enabled === false && <> · {ACTIONS_CONSOLE_TEXT.disabled}</>}
        </>
      )}
    >
      {() => (
        <>
          <BudgetNotice runs={runs} />
          <div className="action-columns">
            <section className="panel action-editor" aria-labelledby="action-editor-heading">
              <h2 id="action-editor-heading">Action</h2>
              <fieldset className="action-fieldset" disabled={!canEdit}>
                <Text id="action-name" label="Name" value={form.name} onChange={set('name')} />
                <Text
                  id="action-description"
                  label="Description"
                  value={form.description}
                  onChange={set('description')}
                />
                <label className="check-row">
                  <input
                    type="checkbox"
                    role="switch"
                    checked={form.enabled}
                    aria-checked={form.enabled}
                    onChange={(e) => set('enabled')(e.target.checked)}
                  />
                  Enabled
                </label>
              </fieldset>
              <TriggerFields
                id={id}
                form={form}
                readOnly={!canEdit}
                problems={problems}
                set={set}
                refusal={refusal}
              />
              <ScriptField value={form.code} onChange={set('code')} readOnly={!canEdit} goTo={goTo} />
              <fieldset className="action-fieldset action-limits" disabled={!canEdit}>
                <legend>Limits and permissions</legend>
                <Text
                  id="action-time"
                  label="Time limit (ms)"
                  inputMode="numeric"
                  value={form.timeLimitMs}
                  onChange={set('timeLimitMs')}
                  hint={`${ACTION_LIMITS.minTimeMs}–${grouped(ACTION_LIMITS.maxTimeMs)}; empty: ${ACTION_LIMITS.defaultTimeMs}`}
                />
                <Text
                  id="action-memory"
                  label="Memory limit (MB)"
                  inputMode="numeric"
                  value={form.memoryMb}
                  onChange={set('memoryMb')}
                  hint={`1–${ACTION_LIMITS.maxMemoryBytes / 1024 / 1024}; empty: ${ACTION_LIMITS.defaultMemoryBytes / 1024 / 1024}`}
                />
                <Text
                  id="action-run-as"
                  label="Runs as (user id)"
                  value={form.runAs}
                  onChange={set('runAs')}
                  error={problems.runAs}
                  hint="Whose permissions db calls carry; another user than you needs the right to change their account and everything they hold"
                />
                <RefusalNote refusal={refusal} field="runAs" />
              </fieldset>
              {problems.form && (
                <p className="field-error" role="alert">
                  {problems.form}
                </p>
              )}
              <RefusalNote refusal={refusal} field={null} fields={REFUSAL_FIELDS} />
            </section>
            <div className="action-side">
              <DebugPanel
                id={id}
                modified={edit.modified}
                pending={!!row?.pending}
                onGoTo={(line) => setGoTo({ line })}
              />
              <RunHistory runs={runs} live={live} onGoTo={(line) => setGoTo({ line })} />
            </div>
          </div>
        </>
      )}
    </RecordScreen>
  )
}
