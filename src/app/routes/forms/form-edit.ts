/**
 * The editor's operations on a form's field list, pure so they are tested in node: add, move, change
 * and remove a field, keeping the conditions that point at fields consistent (a renamed field takes
 * its dependants with it; a removed or moved-below field drops the condition that can no longer hold).
 */
import {
  FORM_FIELD_LABELS,
  type FormDoc,
  type FormField,
  type FormFieldType,
  isDataField,
} from '../../../shared/forms'

/** A new form: one text field, filled by the admins group until the editor says otherwise. */
export function starterForm(title: string, target: string): FormDoc {
  return {
    title,
    target,
    fill: 'group',
    group: 'admins',
    fields: [{ name: 'name', label: 'Name', type: 'text', required: true }],
  }
}

/** A field of a type with a free name (`text1`, `text2` …) and a label the filler can read. */
export function newField(type: FormFieldType, fields: readonly FormField[]): FormField {
  const taken = new Set(fields.map((f) => f.name))
  let n = 1
  while (taken.has(`${type}${n}`)) n++
  const field: FormField = { name: `${type}${n}`, label: `${FORM_FIELD_LABELS[type]} ${n}`, type }
  if (type === 'choice' || type === 'multi') field.options = ['Option 1', 'Option 2']
  if (type === 'file') field.accept = 'image/*'
  return field
}

/** Conditions may only look up the list: after a move, drop those that now point below themselves. */
function keepConditionsValid(fields: FormField[]): FormField[] {
  const above = new Set<string>()
  return fields.map((f) => {
    const next = f.showIf && !above.has(f.showIf.field) ? withoutCondition(f) : f
    if (isDataField(f)) above.add(f.name)
    return next
  })
}

function withoutCondition(f: FormField): FormField {
  const { showIf: _gone, ...rest } = f
  return rest
}

export function moveField(fields: readonly FormField[], from: number, to: number): FormField[] {
  if (from === to || from < 0 || to < 0 || from >= fields.length || to >= fields.length) return [...fields]
  const next = [...fields]
  const [item] = next.splice(from, 1)
  next.splice(to, 0, item!)
  return keepConditionsValid(next)
}

export function removeField(fields: readonly FormField[], index: number): FormField[] {
  const next = fields.filter((_, i) => i !== index)
  return keepConditionsValid(next)
}

/** Replaces a field; a new name is carried into the conditions that named the old one. */
export function changeField(fields: readonly FormField[], index: number, field: FormField): FormField[] {
  const old = fields[index]
  const next = fields.map((f, i) => {
    if (i === index) return field
    if (old && f.showIf?.field === old.name && old.name !== field.name)
      return { ...f, showIf: { ...f.showIf, field: field.name } }
    return f
  })
  return keepConditionsValid(next)
}

/** A form as the body to store: empty optional parts left out. */
export function docOf(form: FormDoc): Record<string, unknown> {
  const out: Record<string, unknown> = {
    title: form.title,
    target: form.target,
    fill: form.fill,
    fields: form.fields,
  }
  if (form.description) out.description = form.description
  if (form.fill === 'group') out.group = form.group ?? ''
  if (form.message) out.message = form.message
  if (form.notify?.email) out.notify = form.notify
  return out
}
