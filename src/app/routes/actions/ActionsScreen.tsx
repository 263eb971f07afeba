/**
 * Actions (/actions, issue 15): every action of the local mirror with its trigger, an enabled switch
 * (a patch through the outbox, so it works offline), its last run and result, and its next run in
 * words. Built on the shared RecordList and list-screen; this file brings the columns, the trigger
 * filter and the create form. A new action opens in its editor at once, online or not.
 */

import { useCallback, useState } from 'react'
import type { SyncDoc } from '../../../db/types'
import { ACTION_TRIGGERS, type ActionTriggerType } from '../../../shared/actions'
import { ACTIONS_CONSOLE_TEXT } from '../../../shared/texts'
import { CreateRecordForm, useCreateRecord } from '../../components/CreateRecordForm'
import { byName, type ListFilter, ListScreen, useListScreen } from '../../components/list-screen'
import { RecordList } from '../../components/RecordList'
import type { Column } from '../../components/VirtualTable'
import { useMutate } from '../../data/sync-context'
import { notifySaved } from '../../feedback/notify'
import { toast } from '../../feedback/toast-store'
import { formatDate, text } from '../../format/values'
import { useCan } from '../../session/use-can'
import { useServerReachable } from '../../sync-ui/use-server-reachable'
import { ACTIONS, type RunDoc, useActions, useLastRuns } from './action-data'
import { starterOf } from './action-form'
import { RunStatus } from './RunDetails'
import { nextRunText, TriggerBadge, triggerOf, triggerText } from './triggers'
import { useNow } from './use-now'
import '../../components/ui.css'
import '../../components/records.css'
import './actions.css'

type SortKey = 'name' | 'trigger' | 'enabled' | 'last' | 'next'
export const actionHref = (id: string) => `/actions/${encodeURIComponent(id)}`

const TRIGGER_FILTER: ListFilter<ActionTriggerType> = {
  label: 'Trigger',
  name: 'Filter by trigger',
  all: 'All triggers',
  options: ACTION_TRIGGERS,
  test: (d, type) => triggerOf(d).type === type,
}

export function ActionsScreen() {
  return (
    <ListScreen title="Actions" needed="actions:r" className="actions-screen">
      <ActionsList />
    </ListScreen>
  )
}

function ActionsList() {
  const list = useListScreen({ rows: useActions(), href: actionHref, filter: TRIGGER_FILTER })
  const allowed = useCan()
  const last = useLastRuns(allowed('action-runs:r'))
  const now = useNow(30_000)
  const searchText = useCallback(
    (d: SyncDoc) => [d._id, text(d.name), text(d.description), triggerOf(d).type ?? '', triggerText(d)],
    [],
  )
  const sortValue = useCallback(
    (d: SyncDoc, by: SortKey): string | number => {
      if (by === 'trigger') return triggerOf(d).type ?? ''
      if (by === 'enabled') return d.enabled === false ? 1 : 0
      if (by === 'last') return last?.get(d._id)?.start ?? ''
      if (by === 'next') return nextRunText(d, now).at?.getTime() ?? Number.MAX_SAFE_INTEGER
      return byName(d)
    },
    [last, now],
  )

  const columns: Column<SyncDoc>[] = [
    list.nameColumn({ width: 200 }),
    {
      key: 'trigger',
      label: 'Trigger',
      width: 230,
      sortable: true,
      render: (d) => (
        <span className="user-cell-text">
          <TriggerBadge type={triggerOf(d).type} />
          <span className="muted action-trigger-text" title={triggerText(d)}>
            {triggerText(d)}
          </span>
        </span>
      ),
    },
    {
      key: 'enabled',
      label: 'Enabled',
      width: 100,
      sortable: true,
      render: (d) => <EnabledSwitch doc={d} />,
    },
    {
      key: 'last',
      label: 'Last run',
      width: 180,
      sortable: true,
      render: (d) => <LastRun run={last?.get(d._id)} />,
    },
    {
      key: 'next',
      label: 'Next run',
      width: 150,
      sortable: true,
      render: (d) => {
        const next = nextRunText(d, now)
        return <span title={next.at?.toLocaleString()}>{next.words}</span>
      },
    },
  ]

  return (
    <RecordList<SortKey>
      collection={ACTIONS}
      rows={list.rows}
      title="Actions"
      noun={['action', 'actions']}
      href={actionHref}
      columns={columns}
      defaultSort="name"
      searchText={searchText}
      sortValue={sortValue}
      searchPlaceholder="Search by name, id or trigger"
      filters={list.filters}
      renderCreate={() => <CreateAction onDone={list.open} />}
    />
  )
}

function LastRun({ run }: { run: RunDoc | undefined }) {
  if (!run) return <span className="muted">never</span>
  return (
    <span className="user-cell-text">
      <RunStatus run={run} />
      <span className="muted">
        {formatDate(run.start)} · {run.trigger}
      </span>
    </span>
  )
}

/** The row's enabled switch: a merge patch through the outbox (SPEC §4), refused without actions/{id}:u. */
function EnabledSwitch({ doc }: { doc: SyncDoc }) {
  const mutate = useMutate()
  const allowed = useCan()
  const on = doc.enabled !== false
  const name = text(doc.name) || doc._id
  const reachable = useServerReachable()
  const toggle = async () => {
    try {
      await mutate.patch(ACTIONS, doc._id, { enabled: !on })
      notifySaved(
        `Action ${name}`,
        reachable,
        { collection: ACTIONS, id: doc._id },
        ACTIONS_CONSOLE_TEXT.enabledChanged(name, !on),
      )
    } catch (e) {
      toast.error(e instanceof Error ? e.message : String(e))
    }
  }
  return (
    <input
      type="checkbox"
      role="switch"
      className="action-switch"
      aria-label={`Enabled: ${name}`}
      checked={on}
      aria-checked={on}
      disabled={!allowed(`${ACTIONS}/${doc._id}:u`)}
      onChange={() => void toggle()}
    />
  )
}

function CreateAction({ onDone }: { onDone: (id: string) => void }) {
  const [id, setId] = useState('')
  const [name, setName] = useState('')
  const [type, setType] = useState<ActionTriggerType>('POST')
  const { error, submit } = useCreateRecord(ACTIONS, 'Action', onDone)
  return (
    <CreateRecordForm
      label="New action"
      submitLabel="Create action"
      error={error}
      onSubmit={() => submit(id, (aid) => starterOf(name.trim() || aid, type))}
      fields={[
        { id: 'new-action-id', label: 'Action id', value: id, onChange: setId },
        { id: 'new-action-name', label: 'Name', value: name, onChange: setName },
        {
          id: 'new-action-trigger',
          label: 'Trigger',
          value: type,
          onChange: (t) => setType(t as ActionTriggerType),
          options: ACTION_TRIGGERS,
        },
      ]}
    />
  )
}
