/**
 * Forms (issue 17, docs/operating/forms.md): the model of a form document and the JSON Schema it stands for.
 * The console's editor edits the field list; the filler, the preview and the server all derive the
 * same JSON Schema from it here (formSchema), so what the browser accepts is what the server stores.
 *
 * A form is keyed by its path, the `_id` of the `forms` collection (`/ui/forms/{_id}`). Conditional
 * fields show only when another field has a given value; a hidden field is neither required nor
 * stored (pruneHidden), the same on both sides. A file or photo field's answer is the storage path of
 * its uploaded file (src/shared/forms-files.ts).
 */
import { STORAGE_PATH_MAX } from './constants'
import { fileSettingsError, isFileField } from './forms-files'
import { isValidCollectionName, isValidId } from './ids'
import { sendPermission } from './messaging'
import { FORM_FILES_TEXT, FORMS_TEXT } from './texts'

export const FORMS = 'forms'

/** Anyone-with-the-link submissions (logged out): at most this many per client address per window. */
export const FORM_PUBLIC_SUBMIT_MAX = 20
export const FORM_PUBLIC_SUBMIT_WINDOW_MS = 60_000
/** A link form's definition may be read this often per address per window (it is public too). */
export const FORM_PUBLIC_READ_MAX = 120
/** The largest submission body (answers as JSON); a form is typed answers, not files. */
export const FORM_SUBMISSION_MAX_BYTES = 64 * 1024
/** Upper bounds that keep one form a form: fields, options of a choice, characters of a text answer. */
export const FORM_FIELDS_MAX = 200
export const FORM_OPTIONS_MAX = 100
export const FORM_TEXT_MAX = 10_000
/** Shown after a submission when the form does not say otherwise. */
export const FORM_DEFAULT_MESSAGE = 'Thank you, your answers were sent.'

export const FORM_FIELD_TYPES = [
  'text',
  'textarea',
  'number',
  'email',
  'date',
  'choice',
  'multi',
  'yesno',
  'file',
  'section',
] as const
export type FormFieldType = (typeof FORM_FIELD_TYPES)[number]

/** What the editor's "Add field" menu calls each type. */
export const FORM_FIELD_LABELS: Record<FormFieldType, string> = {
  text: 'Short text',
  textarea: 'Long text',
  number: 'Number',
  email: 'E-mail',
  date: 'Date',
  choice: 'Single choice',
  multi: 'Multiple choice',
  yesno: 'Yes / no',
  file: 'File or photo',
  section: 'Section heading',
}

export type FieldValue = string | number | boolean

export interface FormField {
  /** The answer's key in the stored document (a section: its own unique name, never stored). */
  name: string
  label: string
  type: FormFieldType
  help?: string
  required?: boolean
  /** choice and multi */
  options?: string[]
  /** number */
  min?: number
  max?: number
  /** file (src/shared/forms-files.ts): the input's accept list, the phone's camera, the largest file. */
  accept?: string
  capture?: boolean
  maxMB?: number
  default?: FieldValue | string[]
  /** Shown only while the named earlier field has this value (multi: includes it). */
  showIf?: { field: string; equals: FieldValue }
}

export type FormFill = 'group' | 'link'

export interface FormDoc {
  title: string
  description?: string
  /** The collection submissions go into: `data/{name}`. */
  target: string
  fields: FormField[]
  /** 'group': logged-in members of `group` (and editors); 'link': anyone with the link, logged out too. */
  fill: FormFill
  group?: string
  /** Shown after submitting. */
  message?: string
  /** Send an e-mail through Messages for each submission (docs/operating/forms.md). */
  notify?: { email: string }
  /**
   * Set by the server, never by a client: the user who last set `target` or `notify` (the form's
   * owner). Submissions are written and announced with no more than the owner's rights, read when
   * each one arrives (formNeeds below; server/forms/owner.ts).
   */
  owner?: string
  /** Set by the server: the API token the owner saved `target`/`notify` with (none: a login session). */
  ownerToken?: string
}

const NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/

export const isDataField = (f: Pick<FormField, 'type'>): boolean => f.type !== 'section'

export function isFormTarget(target: unknown): target is string {
  return typeof target === 'string' && target.startsWith('data/') && isValidCollectionName(target.slice(5))
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '')

/** The form a document holds, with missing parts filled in (never throws). */
export function formOf(doc: Record<string, unknown> | null | undefined): FormDoc {
  const d = doc ?? {}
  const form: FormDoc = {
    title: str(d.title),
    description: str(d.description) || undefined,
    target: str(d.target),
    fields: Array.isArray(d.fields)
      ? (d.fields.filter((f) => f && typeof f === 'object') as FormField[])
      : [],
    fill: d.fill === 'link' ? 'link' : 'group',
    group: str(d.group) || undefined,
    message: str(d.message) || undefined,
  }
  const notify = d.notify as { email?: unknown } | undefined
  if (notify && typeof notify.email === 'string' && notify.email) form.notify = { email: notify.email }
  if (typeof d.owner === 'string' && d.owner) form.owner = d.owner
  if (typeof d.ownerToken === 'string' && d.ownerToken) form.ownerToken = d.ownerToken
  return form
}

/** The fields whose change makes the saver the form's owner (and the server-set fields of that). */
export const FORM_DELEGATED_FIELDS = ['target', 'notify'] as const
export const FORM_OWNER_FIELDS = ['owner', 'ownerToken'] as const

/** A stored or edited form: a document as read, or the editor's FormDoc. */
type FormLike = Record<string, unknown> | FormDoc

/** One right a save needs from its saver, with the field of the form it is for. */
export interface FormNeed {
  permission: string
  field: string
  /** Completes "You cannot …" (DELEGATION_TEXT.needs). */
  what: string
}

/**
 * Does this save set where the answers go or who is told? A new form, a changed target or
 * notification, and the first save of a form that has no owner yet (saved before owners were kept,
 * or seeded) do; the saver then becomes the owner.
 */
export function setsDelegation(current: FormLike | null, next: FormLike): boolean {
  const a = current && formOf(current as Record<string, unknown>)
  if (!a?.owner) return true
  const b = formOf(next as Record<string, unknown>)
  return a.target !== b.target || (a.notify?.email ?? null) !== (b.notify?.email ?? null)
}

/**
 * What the saver of `next` must hold (issue 35, docs/operating/forms.md "Who a form acts for"): the right to
 * create documents in the target, and for a notification the right POST /api/email needs. Nothing
 * when the save does not set the delegation (`current` is the stored form, null for a new one).
 * The server refuses with these (forms/routes.ts); the editor checks them before saving.
 */
export function formNeeds(current: FormLike | null, next: FormLike): FormNeed[] {
  if (!setsDelegation(current, next)) return []
  const form = formOf(next as Record<string, unknown>)
  const needs: FormNeed[] = []
  if (isFormTarget(form.target))
    needs.push({
      permission: `${form.target}:c`,
      field: 'target',
      what: `send this form's answers to ${form.target}`,
    })
  if (form.notify)
    needs.push({
      permission: sendPermission('email'),
      field: 'notify.email',
      what: `e-mail each submission to ${form.notify.email}`,
    })
  return needs
}

/**
 * What the owner must still hold when one submission `docId` arrives: the document's create right
 * and, for a notification, the send right. Read then, so a right taken away stops the next submission.
 */
export function submissionNeeds(form: FormDoc, docId: string): string[] {
  return [`${form.target}/${docId}:c`, ...(form.notify ? [sendPermission('email')] : [])]
}

/** Why a form document cannot be saved, or null. The server refuses with it; the editor shows it. */
export function formError(doc: Record<string, unknown>): string | null {
  if (!str(doc.title).trim()) return FORMS_TEXT.titleMissing
  if (!isFormTarget(doc.target)) return FORMS_TEXT.targetInvalid
  if (doc.fill !== 'group' && doc.fill !== 'link') return FORMS_TEXT.fillInvalid
  if (doc.fill === 'group' && !isValidId(doc.group)) return FORMS_TEXT.groupMissing
  if (doc.message !== undefined && typeof doc.message !== 'string') return FORMS_TEXT.messageInvalid
  if (doc.notify !== undefined && doc.notify !== null) {
    const email = (doc.notify as { email?: unknown }).email
    if (typeof email !== 'string' || !email.includes('@')) return FORMS_TEXT.notifyInvalid
  }
  if (!Array.isArray(doc.fields)) return FORMS_TEXT.fieldsInvalid
  if (doc.fields.length > FORM_FIELDS_MAX) return FORMS_TEXT.tooManyFields(FORM_FIELDS_MAX)
  // A logged-out filler has no storage rights to upload with (docs/decisions/forms.md).
  if (doc.fill === 'link' && doc.fields.some((f) => f && typeof f === 'object' && isFileField(f)))
    return FORM_FILES_TEXT.linkForm
  const seen = new Map<string, FormField>()
  for (const raw of doc.fields) {
    const problem = fieldError(raw, seen)
    if (problem) return problem
    seen.set((raw as FormField).name, raw as FormField)
  }
  return null
}

function fieldError(raw: unknown, earlier: Map<string, FormField>): string | null {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return FORMS_TEXT.fieldsInvalid
  const f = raw as FormField
  if (typeof f.name !== 'string' || !NAME.test(f.name)) return FORMS_TEXT.nameInvalid(str(f.name))
  if (earlier.has(f.name)) return FORMS_TEXT.nameTaken(f.name)
  if (!FORM_FIELD_TYPES.includes(f.type)) return FORMS_TEXT.typeInvalid(f.name)
  if (typeof f.label !== 'string' || !f.label.trim()) return FORMS_TEXT.labelMissing(f.name)
  if (f.type === 'choice' || f.type === 'multi') {
    const o = f.options
    if (!Array.isArray(o) || o.length === 0 || o.length > FORM_OPTIONS_MAX)
      return FORMS_TEXT.optionsMissing(f.label)
    if (o.some((x) => typeof x !== 'string' || !x) || new Set(o).size !== o.length)
      return FORMS_TEXT.optionsInvalid(f.label)
  }
  if (
    (f.min !== undefined && typeof f.min !== 'number') ||
    (f.max !== undefined && typeof f.max !== 'number')
  )
    return FORMS_TEXT.rangeInvalid(f.label)
  if (typeof f.min === 'number' && typeof f.max === 'number' && f.min > f.max)
    return FORMS_TEXT.rangeInvalid(f.label)
  if (isFileField(f)) {
    const problem = fileSettingsError(f)
    if (problem) return problem
  }
  if (f.showIf !== undefined) {
    const on = earlier.get(str(f.showIf?.field))
    if (!on || !isDataField(on)) return FORMS_TEXT.conditionInvalid(f.label)
    if (isFileField(on)) return FORM_FILES_TEXT.conditionOnFile(f.label)
    const v = f.showIf.equals
    if (!['string', 'number', 'boolean'].includes(typeof v)) return FORMS_TEXT.conditionInvalid(f.label)
  }
  return null
}

/** Does an answer meet a condition? A multiple choice meets it when it includes the value. */
function meets(answer: unknown, equals: FieldValue): boolean {
  return Array.isArray(answer) ? answer.includes(equals) : answer === equals
}

/** The fields shown for these answers, in order: a field whose condition fails is hidden, and so is one hanging on a hidden field. */
export function visibleFields(form: Pick<FormDoc, 'fields'>, data: Record<string, unknown>): FormField[] {
  const shown = new Set<string>()
  const out: FormField[] = []
  for (const f of form.fields) {
    const c = f.showIf
    if (c && !(shown.has(c.field) && meets(data[c.field], c.equals))) continue
    shown.add(f.name)
    out.push(f)
  }
  return out
}

/**
 * The answers without those of hidden fields (a value typed before its condition was undone): what is
 * submitted and stored. Keys the form does not know are kept, for the schema to refuse.
 */
export function pruneHidden(
  form: Pick<FormDoc, 'fields'>,
  data: Record<string, unknown>,
): Record<string, unknown> {
  const shown = new Set(
    visibleFields(form, data)
      .filter(isDataField)
      .map((f) => f.name),
  )
  const known = new Set(form.fields.map((f) => f.name))
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(data))
    if (v !== undefined && (shown.has(k) || !known.has(k))) out[k] = v
  return out
}

/**
 * The answers without empty and whitespace-only strings: those are unanswered, so a required field
 * left "" or "   " gets the same "Required" as one left out (issue 36), on the fill page and the
 * server alike, and an optional one is not stored as "".
 */
export function withoutBlankAnswers(answers: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(answers).filter(([, v]) => typeof v !== 'string' || v.trim() !== ''),
  )
}

type Schema = Record<string, unknown>

function fieldSchema(f: FormField): Schema {
  const base: Schema = { title: f.label }
  if (f.help) base.description = f.help
  if (f.default !== undefined) base.default = f.default
  switch (f.type) {
    case 'number':
      return {
        ...base,
        type: 'number',
        ...(f.min !== undefined ? { minimum: f.min } : {}),
        ...(f.max !== undefined ? { maximum: f.max } : {}),
      }
    case 'email':
      return { ...base, type: 'string', format: 'email', maxLength: 320 }
    case 'date':
      return { ...base, type: 'string', format: 'date' }
    case 'choice':
      return { ...base, type: 'string', enum: f.options ?? [] }
    case 'multi':
      return { ...base, type: 'array', items: { type: 'string', enum: f.options ?? [] }, uniqueItems: true }
    case 'file':
      // The storage path of the uploaded file; the server checks it names this submission's file.
      return {
        title: f.label,
        ...(f.help ? { description: f.help } : {}),
        type: 'string',
        maxLength: STORAGE_PATH_MAX,
      }
    case 'yesno':
      // A required yes/no is a consent box: it must be ticked.
      return { ...base, type: 'boolean', default: f.default ?? false, ...(f.required ? { const: true } : {}) }
    default:
      return { ...base, type: 'string', maxLength: FORM_TEXT_MAX }
  }
}

/**
 * The JSON Schema (draft-07) of the fields visible for `data` (all unconditional ones when no data is
 * given): what the filler renders and the server validates. Unknown fields are refused.
 */
export function formSchema(form: FormDoc, data: Record<string, unknown> = {}): Schema {
  const fields = visibleFields(form, data).filter(isDataField)
  const properties: Schema = {}
  for (const f of fields) properties[f.name] = fieldSchema(f)
  const required = fields.filter((f) => f.required).map((f) => f.name)
  return {
    type: 'object',
    title: form.title,
    ...(form.description ? { description: form.description } : {}),
    properties,
    ...(required.length ? { required } : {}),
    additionalProperties: false,
  }
}

/**
 * The same form as one standard JSON Schema with every field and its conditions as if/then (for the
 * JSON view and for tools outside the console): a conditional field is only allowed when its
 * condition holds, and required then if it is marked so.
 */
export function fullSchema(form: FormDoc): Schema {
  const data = form.fields.filter(isDataField)
  const properties: Schema = {}
  for (const f of data) properties[f.name] = fieldSchema(f)
  const plain = data.filter((f) => !f.showIf)
  const required = plain.filter((f) => f.required).map((f) => f.name)
  const allOf = data
    .filter((f) => f.showIf)
    .map((f) => {
      const c = f.showIf!
      const on = data.find((d) => d.name === c.field)
      const test = on?.type === 'multi' ? { contains: { const: c.equals } } : { const: c.equals }
      return {
        if: { properties: { [c.field]: test }, required: [c.field] },
        // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then/else keywords
        then: f.required ? { required: [f.name] } : {},
        else: { not: { required: [f.name] } },
      }
    })
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    title: form.title,
    properties,
    ...(required.length ? { required } : {}),
    ...(allOf.length ? { allOf } : {}),
    additionalProperties: false,
  }
}

/** The fields a collection's JSON Schema describes, for "Fields from the target's schema". */
export function fieldsFromSchema(schema: unknown): FormField[] {
  if (!schema || typeof schema !== 'object') return []
  const s = schema as { properties?: Record<string, Schema>; required?: unknown }
  const required = new Set(Array.isArray(s.required) ? s.required : [])
  const out: FormField[] = []
  for (const [name, p] of Object.entries(s.properties ?? {})) {
    if (!NAME.test(name) || !p || typeof p !== 'object') continue
    const label = str(p.title) || name
    const field: FormField = { name, label, type: 'text', required: required.has(name) || undefined }
    if (p.description) field.help = str(p.description)
    const items = p.items as Schema | undefined
    if (p.type === 'number' || p.type === 'integer') {
      field.type = 'number'
      if (typeof p.minimum === 'number') field.min = p.minimum
      if (typeof p.maximum === 'number') field.max = p.maximum
    } else if (p.type === 'boolean') field.type = 'yesno'
    else if (Array.isArray(p.enum)) {
      field.type = 'choice'
      field.options = p.enum.map(String)
    } else if (p.type === 'array' && items && Array.isArray(items.enum)) {
      field.type = 'multi'
      field.options = items.enum.map(String)
    } else if (p.format === 'email') field.type = 'email'
    else if (p.format === 'date') field.type = 'date'
    else if (p.type !== 'string') continue
    out.push(field)
  }
  return out
}
