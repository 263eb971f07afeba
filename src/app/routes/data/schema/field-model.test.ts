import { describe, expect, it } from 'vitest'
import { type FormDoc, fullSchema } from '../../../../shared/forms'
import { SCHEMA_EDITOR_TEXT as T } from '../../../../shared/texts'
import { buildSchema, emptyField, modelOfSchema } from './field-model'

const roundTrip = (schema: Record<string, unknown>) => {
  const { model, rest } = modelOfSchema(schema)
  return buildSchema(model, rest)
}

describe('the schema editor model', () => {
  it('reads every keyword it edits and writes the same schema back', () => {
    const schema = {
      type: 'object',
      required: ['name', 'email'],
      properties: {
        name: { type: 'string', minLength: 2, maxLength: 80 },
        email: { type: 'string', format: 'email' },
        age: { type: 'integer', minimum: 0, maximum: 120, default: 30 },
        role: { enum: ['lead', 'member', 3] },
        tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, uniqueItems: true, maxItems: 2 },
        active: { type: 'boolean', default: true },
      },
      additionalProperties: false,
    }
    const { model } = modelOfSchema(schema)
    expect(model.strict).toBe(true)
    const byName = Object.fromEntries(model.fields.map((f) => [f.name, f]))
    expect(byName.name).toMatchObject({ type: 'string', required: true, min: '2', max: '80' })
    expect(byName.email).toMatchObject({ format: 'email', required: true })
    expect(byName.age).toMatchObject({ min: '0', max: '120', defaultText: '30' })
    expect(byName.role).toMatchObject({ type: '', enumText: 'lead\nmember\n3' })
    expect(byName.tags).toMatchObject({
      enumText: 'a\nb',
      max: '2',
      extra: { items: { type: 'string' }, uniqueItems: true },
    })
    expect(byName.active).toMatchObject({ defaultText: 'true' })
    const built = roundTrip(schema)
    expect(built.problems).toEqual({})
    expect(built.schema).toEqual(schema)
  })

  it('keeps what it does not edit: a form schema with its if/then conditions (the seeded one)', () => {
    const form: FormDoc = {
      title: 'Visit',
      target: 'data/visits',
      fields: [
        { name: 'site', label: 'Site', type: 'text', required: true },
        { name: 'areas', label: 'Areas', type: 'multi', options: ['Fire', 'First aid'] },
        { name: 'score', label: 'Score', type: 'number', min: 1, max: 5 },
        { name: 'passed', label: 'Passed', type: 'yesno', default: true },
        {
          name: 'actions',
          label: 'Fix',
          type: 'textarea',
          required: true,
          showIf: { field: 'passed', equals: false },
        },
      ],
    } as FormDoc
    const schema = fullSchema(form)
    const built = roundTrip(schema)
    expect(built.problems).toEqual({})
    expect(built.schema).toEqual(schema)
  })

  it('says what is wrong with every field at once', () => {
    const { model, rest } = modelOfSchema({})
    const fields = [
      { ...emptyField(''), key: 'a' },
      { ...emptyField('_id'), key: 'b' },
      { ...emptyField('x'), key: 'c', min: '5', max: '2' },
      { ...emptyField('x'), key: 'd', type: 'integer' as const, min: 'ten', enumText: '1\n2.5' },
      { ...emptyField('score'), key: 'e', type: 'number' as const, max: '5', defaultText: '9' },
      { ...emptyField('meta'), key: 'f', type: 'object' as const, defaultText: '{nope' },
      { ...emptyField('a.b'), key: 'g', min: '1.5' },
    ]
    const { problems } = buildSchema({ ...model, fields }, rest)
    expect(problems).toEqual({
      a: { name: T.nameMissing },
      b: { name: T.nameSystem },
      c: { name: T.nameTaken, max: T.minAboveMax },
      d: { name: T.nameTaken, min: T.notNumber, enum: T.enumValue('2.5', 'integer') },
      e: { default: T.defaultInvalid('Must be at most 5') },
      f: { default: T.defaultJson },
      g: { name: T.nameDot, min: T.notWhole },
    })
  })

  it('writes min/max as the keyword of the type, and drops format for a non-text field', () => {
    const { model, rest } = modelOfSchema({})
    const fields = [
      { ...emptyField('s'), min: '1', max: '3', format: 'email' },
      { ...emptyField('n'), type: 'number' as const, min: '-1.5', max: '3', format: 'email' },
      { ...emptyField('l'), type: 'array' as const, min: '1', enumText: 'x\ny' },
      { ...emptyField('b'), type: 'boolean' as const, min: '1', required: true },
    ]
    expect(buildSchema({ fields, strict: false }, rest).schema).toEqual({
      type: 'object',
      properties: {
        s: { type: 'string', format: 'email', minLength: 1, maxLength: 3 },
        n: { type: 'number', minimum: -1.5, maximum: 3 },
        l: { type: 'array', minItems: 1, items: { enum: ['x', 'y'] } },
        b: { type: 'boolean' },
      },
      required: ['b'],
    })
    expect(model.fields).toEqual([])
  })
})
