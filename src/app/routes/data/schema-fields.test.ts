import { describe, expect, it } from 'vitest'
import { emptyValueFor, messagesByField, schemaFields } from './schema-fields'

describe('the document form from a schema', () => {
  it('lists the declared fields in order with their type, options and required mark', () => {
    const fields = schemaFields({
      required: ['b'],
      properties: { a: { type: ['string', 'null'] }, b: { enum: ['x', 'y'] }, c: { type: 'integer' } },
    })
    expect(fields).toEqual([
      { name: 'a', type: 'string', options: undefined, required: false, title: undefined },
      { name: 'b', type: undefined, options: ['x', 'y'], required: true, title: undefined },
      { name: 'c', type: 'integer', options: undefined, required: false, title: undefined },
    ])
    expect(fields.map(emptyValueFor)).toEqual(['', 'x', 0])
    expect(schemaFields(true)).toEqual([])
  })

  it('shows a nested message on its top-level row', () => {
    expect(
      messagesByField({
        '': 'Is not valid',
        'address.city': 'Required',
        'address.zip': 'Must be a string',
        n: 'Required',
      }),
    ).toEqual({
      '': 'Is not valid',
      address: 'city: Required; zip: Must be a string',
      n: 'Required',
    })
  })
})
