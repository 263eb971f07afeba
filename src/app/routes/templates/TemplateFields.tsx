/**
 * The fields of one template kind (TEMPLATE_PARTS in src/shared/templates.ts): name, description, each
 * Liquid part in its editor, and for email/pdf HTML a Layout picker listing the layout templates.
 */
import { TEMPLATE_PARTS, type TemplateKind } from '../../../shared/templates'
import { text } from '../../format/values'
import { CodeField } from './CodeField'
import { layoutOf, withLayout } from './layout-ref'
import { useTemplates } from './template-data'
import { HTML_FIELDS, PART_LABELS, SINGLE_LINE_FIELDS, type TemplateForm } from './template-form'

export interface TemplateFieldsProps {
  kind: TemplateKind
  form: TemplateForm
  readOnly: boolean
  /** Messages by field (the server's syntax errors with line and column). */
  errors: Record<string, string>
  onChange: (next: (prev: TemplateForm) => TemplateForm) => void
}

export function TemplateFields({ kind, form, readOnly, errors, onChange }: TemplateFieldsProps) {
  const setPart = (field: string, value: string) =>
    onChange((v) => ({ ...v, parts: { ...v.parts, [field]: value } }))
  return (
    <>
      <div className="form-grid">
        <div className="field">
          <label htmlFor="template-name">Name</label>
          <input
            id="template-name"
            className="input"
            disabled={readOnly}
            value={form.name}
            onChange={(e) => onChange((v) => ({ ...v, name: e.target.value }))}
          />
        </div>
        <div className="field">
          <label htmlFor="template-description">Description</label>
          <input
            id="template-description"
            className="input"
            disabled={readOnly}
            value={form.description}
            onChange={(e) => onChange((v) => ({ ...v, description: e.target.value }))}
          />
        </div>
      </div>
      {(kind === 'email' || kind === 'pdf') && (
        <LayoutPicker
          value={layoutOf(form.parts.html ?? '')}
          disabled={readOnly}
          onChange={(id) => setPart('html', withLayout(form.parts.html ?? '', id))}
        />
      )}
      {TEMPLATE_PARTS[kind].map((p) => (
        <CodeField
          key={p.field}
          label={`${kind === 'sms' ? 'Message text' : (PART_LABELS[p.field] ?? p.field)}${p.required ? '' : ' (optional)'}`}
          language={HTML_FIELDS.has(p.field) ? 'html' : 'liquid'}
          singleLine={SINGLE_LINE_FIELDS.has(p.field)}
          value={form.parts[p.field] ?? ''}
          readOnly={readOnly}
          error={errors[p.field]}
          onChange={(value) => setPart(p.field, value)}
        />
      ))}
    </>
  )
}

function LayoutPicker(props: { value: string; disabled: boolean; onChange: (id: string) => void }) {
  const layouts = (useTemplates()?.docs ?? []).filter((d) => d.kind === 'layout')
  const known = layouts.some((d) => d._id === props.value)
  return (
    <div className="field">
      <label htmlFor="template-layout">Layout</label>
      <select
        id="template-layout"
        className="input"
        disabled={props.disabled}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
      >
        <option value="">No layout</option>
        {!known && props.value && <option value={props.value}>{props.value}</option>}
        {layouts.map((d) => (
          <option key={d._id} value={d._id}>
            {text(d.name) || d._id}
          </option>
        ))}
      </select>
      <p className="field-hint">
        Sets {'{% layout "…" %}'} at the start of the HTML; the body fills its content block.
      </p>
    </div>
  )
}
