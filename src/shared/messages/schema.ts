// Collection JSON Schema validation texts.
// One definition of each text; src/shared/messages.ts re-exports this file.
import { countOf } from '../plural'

/**
 * Schemas (issue 17, docs/schemas.md): one message per field of a document that breaks its
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
