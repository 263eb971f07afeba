/**
 * The rjsf uiSchema of a form (src/shared/forms.ts): which widget each field type uses, the order,
 * the sections (headings in the field list become fieldsets, rjsf-theme.tsx) and the submit button.
 * Pure, so the preview and the filler render the same form from the same field list.
 */
import type { UiSchema } from '@rjsf/utils'
import { type FormDoc, type FormField, isDataField, visibleFields } from '../../../shared/forms'
import type { SectionLayout } from './rjsf-theme'

/** Up to this many options show as radio buttons; more as a drop-down. */
const RADIO_MAX = 6

function widgetOf(f: FormField): string | undefined {
  if (f.type === 'textarea') return 'textarea'
  if (f.type === 'yesno') return 'yesno'
  if (f.type === 'multi') return 'checkboxes'
  if (f.type === 'file') return 'file'
  if (f.type === 'choice') return (f.options?.length ?? 0) <= RADIO_MAX ? 'radio' : 'select'
  return undefined
}

export function formUi(form: FormDoc, data: Record<string, unknown>, submitText = 'Send'): UiSchema {
  const shown = visibleFields(form, data)
  const sections: SectionLayout[] = []
  const ui: UiSchema = {}
  for (const f of shown) {
    if (!isDataField(f)) {
      sections.push({ key: f.name, title: f.label, help: f.help, names: [] })
      continue
    }
    sections.at(-1)?.names.push(f.name)
    const widget = widgetOf(f)
    ui[f.name] = widget ? { 'ui:widget': widget } : {}
    if (f.type === 'file') {
      const { name, label, accept, capture, maxMB } = f
      ui[f.name]['ui:options'] = { file: { name, label, accept, capture, maxMB } }
    }
  }
  ui['ui:order'] = [...shown.filter(isDataField).map((f) => f.name), '*']
  ui['ui:options'] = { sections }
  ui['ui:submitButtonOptions'] = { submitText }
  return ui
}

/** The answers a fresh form starts with: each field's default. */
export function defaultsOf(form: FormDoc): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const f of form.fields) {
    if (!isDataField(f)) continue
    if (f.default !== undefined && f.default !== '') out[f.name] = f.default
    else if (f.type === 'yesno') out[f.name] = false
  }
  return out
}
