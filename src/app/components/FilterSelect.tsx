/**
 * A list's filter drop-down beside its search box: a short visible label, an accessible name that says
 * what is filtered ("Filter by trigger"), "All …" as the empty choice, then the values. Styled by
 * `.kind-filter` (components/ui.css).
 */
export interface FilterSelectProps<V extends string> {
  /** Visible label, e.g. "Trigger". */
  label: string
  /** Accessible name, e.g. "Filter by trigger". */
  name: string
  value: '' | V
  onChange: (value: '' | V) => void
  /** The empty choice's text, e.g. "All triggers". */
  all: string
  options: readonly V[]
}

export function FilterSelect<V extends string>(props: FilterSelectProps<V>) {
  return (
    <label className="kind-filter">
      <span>{props.label}</span>
      <select
        aria-label={props.name}
        className="input"
        value={props.value}
        onChange={(e) => props.onChange(e.target.value as '' | V)}
      >
        <option value="">{props.all}</option>
        {props.options.map((v) => (
          <option key={v} value={v}>
            {v}
          </option>
        ))}
      </select>
    </label>
  )
}
