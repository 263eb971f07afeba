// Collection JSON Schema validation texts.
// One definition of each text; src/shared/texts.ts re-exports this file.
import { countOf, grouped } from '../plural'
import { cannotDo } from './spec'

/**
 * Schemas (issue 17, docs/operating/schemas.md): one message per field of a document that breaks its
 * collection's JSON Schema, the same in the console's forms and in the server's 400. The e-mail
 * format uses SERVER_TEXT.invalidEmail (SPEC §5's check).
 */
export const SCHEMA_TEXT = {
  required: 'Required',
  type: (type: string): string => `Must be ${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`,
  format: (format: string): string => `Must be a valid ${format}`,
  enum: (values: readonly unknown[]): string =>
    `Must be one of: ${values.map((v) => JSON.stringify(v)).join(', ')}`,
  const: (value: unknown): string => `Must be ${JSON.stringify(value)}`,
  minimum: (n: number): string => `Must be at least ${n}`,
  maximum: (n: number): string => `Must be at most ${n}`,
  exclusiveMinimum: (n: number): string => `Must be greater than ${n}`,
  exclusiveMaximum: (n: number): string => `Must be less than ${n}`,
  multipleOf: (n: number): string => `Must be a multiple of ${n}`,
  minLength: (n: number): string => `Must be at least ${countOf(n, 'character')}`,
  maxLength: (n: number): string => `Must be at most ${countOf(n, 'character')}`,
  pattern: 'Does not have the expected form',
  minItems: (n: number): string => `Must have at least ${countOf(n, 'item')}`,
  maxItems: (n: number): string => `Must have at most ${countOf(n, 'item')}`,
  uniqueItems: 'Must not repeat an item',
  notAllowed: 'Not a field of this collection',
  choice: 'Does not match any of the allowed forms',
  invalid: 'Is not valid',
  errorsLabel: 'Fields that do not match the schema',
  schemaInvalid: (detail: string): string => `Not a valid JSON Schema: ${detail}`,
  schemaPathInvalid: "A schema is keyed by its collection's path, e.g. data/inspections",
  /** Names each field, so a write refused on outbox replay explains itself in the sync inbox too. */
  documentRejected: (fields: Record<string, string>): string =>
    `The document does not match its collection's schema: ${Object.entries(fields)
      .map(([field, message]) => `${field || 'the document'}: ${message}`)
      .join('; ')}`,
} as const

/**
 * The schema editor (issue 36, docs/using/schemas.md "The schema editor"): /data/{collection}/~schema.
 * Queued and accepted are said apart (issue 36's rule): a save reached only this device until the
 * server confirms it.
 */
export const SCHEMA_EDITOR_TEXT = {
  title: (collection: string): string => `Schema of ${collection}`,
  tab: 'Schema',
  intro:
    'What every document of this collection must look like. The server refuses a write that does not match; documents written before stay readable and must match at their next save.',
  none: 'No schema yet: documents of any shape are accepted. Add fields, or infer them from the documents.',
  noFields: 'No fields yet.',
  addField: 'Add a field',
  newField: 'New field',
  infer: 'Infer from the documents',
  inferred: (fields: number, docs: number): string =>
    `${countOf(fields, 'field')} inferred from ${countOf(docs, 'document')} on this device. Check them, then save.`,
  inferNothing: 'No documents of this collection on this device to infer from.',
  removeField: (name: string): string => `Remove ${name || 'this field'}`,
  name: 'Name',
  type: 'Type',
  anyType: 'any',
  required: 'Required',
  format: 'Format',
  noFormat: 'none',
  min: 'Min',
  max: 'Max',
  /** What Min/Max bound for the field's type. */
  rangeHint: (type: string): string =>
    type === 'string' ? 'characters' : type === 'array' ? 'items' : type ? 'value' : '',
  enum: 'Allowed values (one per line)',
  default: 'Default',
  strict: 'Refuse fields that are not listed here',
  kept: (keywords: readonly string[]): string =>
    `Also in this schema, kept as they are: ${keywords.join(', ')}`,
  json: 'The schema as JSON',
  // Checked before saving, every field's error at once (issue 36's rule).
  nameMissing: 'Enter a field name',
  nameSystem: 'Fields starting with _ belong to the server',
  nameDot: 'A field name cannot hold a dot',
  nameTaken: 'Two fields have this name',
  notNumber: 'Enter a number',
  notWhole: 'Enter a whole number, 0 or more',
  minAboveMax: 'Min is greater than Max',
  enumValue: (value: string, type: string): string =>
    `'${value}' is not ${type === 'integer' ? 'a whole number' : 'a number'}`,
  defaultJson: 'Enter the default as JSON',
  defaultInvalid: (message: string): string => `Default: ${message}`,
  fixFirst: (n: number): string => `Fix ${countOf(n, 'field')} before saving`,
  // The documents on this device that the edited schema would not accept.
  checking: 'Checking the documents on this device…',
  allConform: (n: number): string => `All ${countOf(n, 'document')} on this device match this schema.`,
  noDocs: 'No documents of this collection on this device yet.',
  violating: (bad: number, all: number): string =>
    `${countOf(bad, 'document')} of ${grouped(all)} on this device would not match this schema`,
  violatingMore: (n: number): string => `…and ${countOf(n, 'more document')}`,
  violatingNote:
    'They stay as they are; the server refuses their next save until they match. Open one to fix it.',
  confirmTitle: 'Save a schema some documents do not match?',
  confirmText: (bad: number): string =>
    `${countOf(bad, 'document')} on this device would not match. They stay readable; each must match at its next save.`,
  confirmSave: 'Save the schema',
  // The save's outcome, on one row that changes as it becomes known.
  queuedOffline: 'Saved on this device — will be sent when online',
  sending: 'Saved on this device — sending to the server…',
  accepted: 'Saved: the server accepted the schema',
  readOnlyAction: 'edit this schema',
  cannotRead: (collection: string, needed: string): string =>
    cannotDo('open', `the schema of ${collection}`, needed),
} as const
