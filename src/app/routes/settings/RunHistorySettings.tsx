/**
 * The Settings card for `action_runs`: how many runs of each action, and for how many days, the run
 * history keeps (docs/operating/actions.md "Pruning"). Empty fields leave the server's defaults, shown as the
 * placeholders; each action's history is pruned after its next run.
 */
import { ACTION_RUNS_DAYS_DEFAULT, ACTION_RUNS_KEEP_DEFAULT } from '../../../shared/actions'
import { TextSetting } from './fields'
import type { SettingsErrors, SettingsForm } from './settings-model'

type Runs = SettingsForm['action_runs']

export function RunHistorySettings(props: {
  value: Runs
  errors: SettingsErrors
  disabled: boolean
  onChange: (value: Runs) => void
}) {
  const { value, errors, onChange } = props
  return (
    <fieldset className="settings-card" disabled={props.disabled}>
      <legend>Action run history</legend>
      <TextSetting
        label="Runs kept per action"
        inputMode="numeric"
        value={value.keep}
        onChange={(keep) => onChange({ ...value, keep })}
        error={errors['action_runs.keep']}
        placeholder={String(ACTION_RUNS_KEEP_DEFAULT)}
        hint="Older runs beyond this number are deleted after the action's next run."
      />
      <TextSetting
        label="Days a run is kept"
        inputMode="numeric"
        value={value.days}
        onChange={(days) => onChange({ ...value, days })}
        error={errors['action_runs.days']}
        placeholder={String(ACTION_RUNS_DAYS_DEFAULT)}
        hint="Runs older than this are deleted after the action's next run. Empty: the default shown."
      />
    </fieldset>
  )
}
