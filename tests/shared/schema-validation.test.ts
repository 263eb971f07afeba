/**
 * The console's schema check (interpreted, src/shared/schema-validation.ts) and the server's (ajv,
 * src/server/schemas/ajv-engine.ts) must say the same thing for the same document (issue 17): each
 * case runs through both and expects the same per-field messages, SPEC §5's e-mail message included.
 */
import { describe, expect, it } from 'vitest'
import { validateOnServer } from '../../src/server/schemas/ajv-engine'
import { type FieldErrors, type JsonSchema, validateDocument } from '../../src/shared/schema-validation'
import { SCHEMA_TEXT, SERVER_TEXT } from '../../src/shared/texts'

const SCHEMA: JsonSchema = {
  type: 'object',
  required: ['name', 'email'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 2, maxLength: 20 },
    email: { type: 'string', format: 'email' },
    age: { type: 'integer', minimum: 0, maximum: 120 },
    ratio: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1, multipleOf: 0.25 },
    kind: { enum: ['a', 'b'] },
    fixed: { const: 'x' },
    code: { type: 'string', pattern: '^[A-Z]{3}$' },
    day: { type: 'string', format: 'date' },
    link: { type: 'string', format: 'uri' },
    address: {
      type: 'object',
      required: ['city'],
      properties: { city: { type: 'string' }, zip: { type: ['string', 'null'] } },
    },
    tags: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 3, uniqueItems: true },
    either: { anyOf: [{ type: 'string' }, { type: 'number' }] },
    pos: { $ref: '#/definitions/positive' },
    hasCar: { type: 'boolean' },
    plate: { type: 'string' },
  },
  // A conditional field, as the forms editor writes one.
  if: { properties: { hasCar: { const: true } }, required: ['hasCar'] },
  // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keywords
  then: { required: ['plate'] },
  definitions: { positive: { type: 'number', exclusiveMinimum: 0 } },
}

const cases: Array<[string, unknown, FieldErrors]> = [
  ['a conforming document', { _id: 'x', _rev: 3, name: 'Ada', email: 'ada@example.org', age: 36 }, {}],
  ['an empty document', {}, { email: SCHEMA_TEXT.required, name: SCHEMA_TEXT.required }],
  [
    'every kind of mistake',
    {
      name: 'A',
      email: 'ada@',
      age: 130.5,
      ratio: 0.3,
      kind: 'c',
      fixed: 'y',
      code: 'abc',
      day: '2026-02-30',
      link: 'not a uri',
      address: { zip: 5 },
      tags: ['a', 'a', 'b', 'c'],
      either: true,
      pos: 0,
      extra: 1,
    },
    {
      'address.city': SCHEMA_TEXT.required,
      'address.zip': SCHEMA_TEXT.type('string or null'),
      age: SCHEMA_TEXT.type('integer'),
      code: SCHEMA_TEXT.pattern,
      day: SCHEMA_TEXT.format('date'),
      either: SCHEMA_TEXT.choice,
      email: SERVER_TEXT.invalidEmail,
      extra: SCHEMA_TEXT.notAllowed,
      fixed: SCHEMA_TEXT.const('x'),
      kind: SCHEMA_TEXT.enum(['a', 'b']),
      link: SCHEMA_TEXT.format('uri'),
      name: SCHEMA_TEXT.minLength(2),
      pos: SCHEMA_TEXT.exclusiveMinimum(0),
      ratio: SCHEMA_TEXT.multipleOf(0.25),
      tags: SCHEMA_TEXT.maxItems(3),
    },
  ],
  [
    'a conditional field left empty',
    { name: 'Ada', email: 'ada@example.org', hasCar: true },
    { plate: SCHEMA_TEXT.required },
  ],
  [
    'items of a list',
    { name: 'Ada', email: 'ada@example.org', tags: [1, 'b'] },
    { 'tags.0': SCHEMA_TEXT.type('string') },
  ],
  ['a document that is not an object', [1], { '': SCHEMA_TEXT.type('object') }],
]

describe('the console and the server check a document alike', () => {
  it.each(cases)('%s', (_name, doc, expected) => {
    expect(validateDocument(SCHEMA, doc)).toEqual(expected)
    expect(validateOnServer(SCHEMA, doc)).toEqual(expected)
  })

  it("uses SPEC's e-mail check for format: email in both", () => {
    const schema = { properties: { e: { type: 'string', format: 'email' } } }
    // ajv-formats alone accepts "a@b" (no dot in the domain); SPEC's check does not.
    for (const [e, ok] of [
      ['a@b', false],
      ['a b@c.io', false],
      ['ada@example.org', true],
    ] as const) {
      const want = ok ? {} : { e: SERVER_TEXT.invalidEmail }
      expect(validateDocument(schema, { e }), e).toEqual(want)
      expect(validateOnServer(schema, { e }), e).toEqual(want)
    }
  })
})
