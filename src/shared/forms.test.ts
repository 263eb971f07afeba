import { describe, expect, it } from 'vitest'
import {
  type FormDoc,
  fieldsFromSchema,
  formError,
  formNeeds,
  formSchema,
  fullSchema,
  pruneHidden,
  visibleFields,
} from './forms'
import { validateDocument } from './schema-validation'
import { FORMS_TEXT } from './texts'

const form: FormDoc = {
  title: 'Inspection',
  target: 'data/inspections',
  fill: 'link',
  fields: [
    { name: 'site', label: 'Site', type: 'text', required: true },
    { name: 'kind', label: 'Kind', type: 'multi', options: ['a', 'b'] },
    { name: 'damage', label: 'Damage', type: 'yesno' },
    {
      name: 'details',
      label: 'Details',
      type: 'textarea',
      required: true,
      showIf: { field: 'damage', equals: true },
    },
    { name: 'photo', label: 'More', type: 'text', showIf: { field: 'details', equals: 'see photo' } },
    { name: 'b', label: 'B only', type: 'text', showIf: { field: 'kind', equals: 'b' } },
  ],
}

describe('conditional fields', () => {
  it('hide a field until its condition holds, and one hanging on a hidden field', () => {
    const names = (data: Record<string, unknown>) => visibleFields(form, data).map((f) => f.name)
    expect(names({ damage: false, details: 'see photo' })).toEqual(['site', 'kind', 'damage'])
    expect(names({ damage: true, details: 'see photo', kind: ['b'] })).toEqual([
      'site',
      'kind',
      'damage',
      'details',
      'photo',
      'b',
    ])
  })

  it('drop hidden answers but keep unknown keys for the schema to refuse', () => {
    expect(pruneHidden(form, { site: 'x', damage: false, details: 'old', extra: 1 })).toEqual({
      site: 'x',
      damage: false,
      extra: 1,
    })
  })

  it('give the same verdict as the full if/then schema', () => {
    for (const data of [
      { site: 'x', damage: true },
      { site: 'x', damage: true, details: 'd' },
      { site: 'x', damage: false },
    ]) {
      const visible = validateDocument(formSchema(form, data), data)
      const full = validateDocument(fullSchema(form), data)
      expect(Object.keys(visible).length === 0).toBe(Object.keys(full).length === 0)
    }
  })
})

describe('formError', () => {
  it('accepts the form and names the first problem otherwise', () => {
    expect(formError(form as unknown as Record<string, unknown>)).toBeNull()
    const moved = { ...form, fields: [form.fields[3], ...form.fields] }
    expect(formError(moved as unknown as Record<string, unknown>)).toBe(
      FORMS_TEXT.conditionInvalid('Details'),
    )
  })
})

describe('fieldsFromSchema', () => {
  it('turns a collection schema into fields', () => {
    const fields = fieldsFromSchema({
      required: ['email'],
      properties: {
        email: { type: 'string', format: 'email', title: 'E-mail' },
        size: { type: 'integer', minimum: 1 },
        tags: { type: 'array', items: { enum: ['x', 'y'] } },
        ok: { type: 'boolean' },
        nested: { type: 'object' },
      },
    })
    expect(fields.map((f) => [f.name, f.type])).toEqual([
      ['email', 'email'],
      ['size', 'number'],
      ['tags', 'multi'],
      ['ok', 'yesno'],
    ])
    expect(fields[0]).toMatchObject({ label: 'E-mail', required: true })
  })
})

describe('formNeeds: what a save asks of its saver (issue 35)', () => {
  const owned = { ...form, owner: 'ana' }
  it('asks for the target and the send right when they are set, and nothing for other edits', () => {
    expect(
      formNeeds(null, { ...form, notify: { email: 'a@b.test' } }).map((n) => [n.permission, n.field]),
    ).toEqual([
      ['data/inspections:c', 'target'],
      ['messages/email:c', 'notify.email'],
    ])
    expect(formNeeds(owned, { ...owned, title: 'Renamed' })).toEqual([])
    expect(formNeeds(owned, { ...owned, target: 'data/other' }).map((n) => n.permission)).toEqual([
      'data/other:c',
    ])
    // A form without an owner (saved before owners, or seeded): its next save sets one.
    expect(formNeeds(form, { ...form, title: 'Renamed' }).map((n) => n.field)).toEqual(['target'])
  })
})
