/**
 * The trigger part of the action form: its type; for CRON the expression and time zone, checked as
 * you type with croner (the server's scheduler) and previewed as words and the next five times; for
 * EVENT the watched collection and operations; for HTTP the route that runs it.
 */
import { useMemo } from 'react'
import { ACTION_TRIGGERS, type ActionTriggerType, EVENT_OPERATIONS } from '../../../shared/actions'
import { ACTIONS_CONSOLE_TEXT } from '../../../shared/texts'
import { RefusalNote } from '../../components/RefusalNote'
import type { SaveRefusal } from '../../data/use-save-refusal'
import { type ActionForm, isHttp, type Operation } from './action-form'
import { cronPreview } from './cron'
import { runPath } from './triggers'
import { useNow } from './use-now'

const ZONES: readonly string[] =
  typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : []

interface Props {
  id: string
  form: ActionForm
  readOnly: boolean
  problems: Partial<Record<keyof ActionForm | 'form', string>>
  set: <K extends keyof ActionForm>(key: K) => (value: ActionForm[K]) => void
  /** The server's refusal of a queued save, shown here when it names the watched collection. */
  refusal?: SaveRefusal | null
}

export function TriggerFields({ id, form, readOnly, problems, set, refusal = null }: Props) {
  return (
    <fieldset className="action-fieldset" disabled={readOnly}>
      <legend>Trigger</legend>
      <TriggerTypeField id="action-trigger" label="Type" value={form.type} onChange={set('type')} />
      {form.type === 'CRON' && <CronFields form={form} problems={problems} set={set} />}
      {form.type === 'EVENT' && (
        <>
          <Text
            id="action-collection"
            label="Collection"
            value={form.collection}
            onChange={set('collection')}
            error={problems.collection}
            hint="A Database collection such as orders, or a store name with a slash; whoever it runs as must be able to read it"
          />
          <RefusalNote refusal={refusal} field="trigger.collection" />
          <fieldset
            className="action-ops"
            aria-describedby={problems.operations ? 'action-ops-error' : undefined}
          >
            <legend>Operations</legend>
            {EVENT_OPERATIONS.map((op) => (
              <label key={op} className="check-row">
                <input
                  type="checkbox"
                  checked={form.operations.includes(op)}
                  onChange={(e) =>
                    set('operations')(
                      e.target.checked
                        ? [...form.operations, op]
                        : form.operations.filter((x: Operation) => x !== op),
                    )
                  }
                />
                {op}
              </label>
            ))}
            {problems.operations && (
              <p className="field-error" id="action-ops-error" role="alert">
                {problems.operations}
              </p>
            )}
          </fieldset>
        </>
      )}
      {isHttp(form.type) && (
        <p className="field-hint">
          Runs on <code>{`${form.type} ${runPath(id)}`}</code> for users with{' '}
          <code>{`actions/run/${id}`}</code>; the script's <code>{'{status, headers, body}'}</code> is the
          response.
        </p>
      )}
    </fieldset>
  )
}

function CronFields({ form, problems, set }: Pick<Props, 'form' | 'problems' | 'set'>) {
  const now = useNow(60_000)
  const preview = useMemo(() => cronPreview(form.cron, form.timezone, now), [form.cron, form.timezone, now])
  const zone = form.timezone.trim() || undefined
  return (
    <>
      <Text
        id="action-cron"
        label="CRON expression"
        value={form.cron}
        onChange={set('cron')}
        error={problems.cron}
        hint="minute hour day month weekday, e.g. */15 * * * * (a 6th field first: seconds)"
        mono
      />
      <Text
        id="action-timezone"
        label="Time zone"
        value={form.timezone}
        onChange={set('timezone')}
        error={problems.timezone}
        hint="IANA name such as Europe/Berlin; empty: the server's zone"
        list="action-zones"
      />
      <datalist id="action-zones">
        {ZONES.map((z) => (
          <option key={z} value={z} />
        ))}
      </datalist>
      {preview.ok && (
        <section className="cron-preview" aria-label="Next runs">
          <p>{ACTIONS_CONSOLE_TEXT.cronWords(preview.words)}</p>
          {preview.next.length === 0 ? (
            <p className="muted">{ACTIONS_CONSOLE_TEXT.noNextRun}</p>
          ) : (
            <ol>
              {preview.next.map((d) => (
                <li key={d.getTime()}>
                  <time dateTime={d.toISOString()}>
                    {d.toLocaleString(undefined, {
                      timeZone: zone,
                      dateStyle: 'medium',
                      timeStyle: 'medium',
                    })}
                  </time>
                </li>
              ))}
            </ol>
          )}
        </section>
      )}
    </>
  )
}

export function Text(props: {
  id: string
  label: string
  value: string
  onChange: (v: string) => void
  error?: string
  hint?: string
  mono?: boolean
  list?: string
  inputMode?: 'numeric'
}) {
  const described = props.error ? `${props.id}-error` : props.hint ? `${props.id}-hint` : undefined
  return (
    <div className={`field${props.error ? ' has-error' : ''}`}>
      <label htmlFor={props.id}>{props.label}</label>
      <input
        id={props.id}
        className={`input${props.mono ? ' mono' : ''}`}
        value={props.value}
        list={props.list}
        inputMode={props.inputMode}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={described}
        onChange={(e) => props.onChange(e.target.value)}
      />
      {props.error ? (
        <p className="field-error" id={`${props.id}-error`} role="alert">
          {props.error}
        </p>
      ) : (
        props.hint && (
          <p className="field-hint" id={`${props.id}-hint`}>
            {props.hint}
          </p>
        )
      )}
    </div>
  )
}

/** The trigger type's drop-down, in the editor and in the "New action" form. */
export function TriggerTypeField(props: {
  id: string
  label: string
  value: ActionTriggerType
  onChange: (type: ActionTriggerType) => void
}) {
  return (
    <div className="field">
      <label htmlFor={props.id}>{props.label}</label>
      <select
        id={props.id}
        className="input"
        value={props.value}
        onChange={(e) => props.onChange(e.target.value as ActionTriggerType)}
      >
        {ACTION_TRIGGERS.map((k) => (
          <option key={k} value={k}>
            {k}
          </option>
        ))}
      </select>
    </div>
  )
}
