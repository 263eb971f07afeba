/**
 * The documents on this device the edited schema would not accept, listed before saving (issue 36),
 * each with the messages the server would give and a link to fix it in the document form.
 */
import { Link } from 'wouter'
import { SCHEMA_EDITOR_TEXT as T } from '../../../../shared/texts'
import { VIOLATIONS_LISTED, type Violations } from './violations'

const docHref = (name: string, id: string) => `/data/${encodeURIComponent(name)}/${encodeURIComponent(id)}`

export function ViolationList({ name, violations }: { name: string; violations: Violations | undefined }) {
  if (!violations)
    return (
      <p className="muted schema-check" role="status">
        {T.checking}
      </p>
    )
  if (violations.checked === 0) return <p className="muted schema-check">{T.noDocs}</p>
  if (violations.count === 0)
    return (
      <p className="muted schema-check" role="status">
        {T.allConform(violations.checked)}
      </p>
    )
  const more = violations.count - violations.listed.length
  return (
    <section className="schema-violations" aria-labelledby="schema-violations-title">
      <h2 id="schema-violations-title" className="schema-subtitle">
        {T.violating(violations.count, violations.checked)}
      </h2>
      <p className="field-hint">{T.violatingNote}</p>
      <ul aria-labelledby="schema-violations-title">
        {violations.listed.slice(0, VIOLATIONS_LISTED).map((v) => (
          <li key={v.id}>
            <Link href={docHref(name, v.id)} className="mono">
              {v.id}
            </Link>
            <span className="schema-violation-fields">
              {Object.entries(v.fields)
                .map(([path, message]) => (path ? `${path}: ${message}` : message))
                .join('; ')}
            </span>
          </li>
        ))}
      </ul>
      {more > 0 && <p className="muted">{T.violatingMore(more)}</p>}
    </section>
  )
}
