/** The time range (a preset or two dates) and the granularity of the dashboards. */
import type { Granularity } from '../../../shared/analytics'
import { hourlyAllowed, isoDay, PRESETS, type PresetId, type RangeChoice } from './range'

export function RangePicker({ value, onChange }: { value: RangeChoice; onChange(next: RangeChoice): void }) {
  const now = Date.now()
  const hourly = hourlyAllowed(value, now)
  const granularity: Granularity = hourly ? value.granularity : 'day'
  const rangeValue = value.kind === 'preset' ? value.preset : 'custom'

  const pickRange = (id: string) => {
    if (id === 'custom') {
      onChange({ kind: 'custom', from: isoDay(now - 6 * 86_400_000), to: isoDay(now), granularity: 'day' })
      return
    }
    const preset = (PRESETS.find((p) => p.id === id)?.id ?? '7d') as PresetId
    onChange({ kind: 'preset', preset, granularity: preset === '24h' ? 'hour' : 'day' })
  }

  return (
    <fieldset className="analytics-range">
      <legend className="visually-hidden">Time range</legend>
      <label>
        <span>Range</span>
        <select className="input" value={rangeValue} onChange={(e) => pickRange(e.target.value)}>
          {PRESETS.map((p) => (
            <option key={p.id} value={p.id}>
              {p.label}
            </option>
          ))}
          <option value="custom">Custom dates</option>
        </select>
      </label>
      {value.kind === 'custom' && (
        <>
          <DateField
            label="From"
            value={value.from}
            max={value.to}
            onChange={(from) => onChange({ ...value, from })}
          />
          <DateField
            label="To"
            value={value.to}
            min={value.from}
            onChange={(to) => onChange({ ...value, to })}
          />
        </>
      )}
      <label>
        <span>Per</span>
        <select
          className="input"
          value={granularity}
          onChange={(e) => onChange({ ...value, granularity: e.target.value as Granularity })}
        >
          <option value="hour" disabled={!hourly}>
            Hour
          </option>
          <option value="day">Day</option>
        </select>
      </label>
    </fieldset>
  )
}

function DateField(props: {
  label: string
  value: string
  min?: string
  max?: string
  onChange(day: string): void
}) {
  return (
    <label>
      <span>{props.label}</span>
      <input
        className="input"
        type="date"
        value={props.value}
        min={props.min}
        max={props.max}
        onChange={(e) => e.target.value && props.onChange(e.target.value)}
      />
    </label>
  )
}
