import { describe, expect, it } from 'vitest'
import type { FormField } from '../../../shared/forms'
import { changeField, moveField, newField, removeField } from './form-edit'

const fields: FormField[] = [
  { name: 'a', label: 'A', type: 'yesno' },
  { name: 'b', label: 'B', type: 'text', showIf: { field: 'a', equals: true } },
  { name: 'c', label: 'C', type: 'text' },
]

describe('the field list operations', () => {
  it('name a new field freely', () => {
    expect(newField('text', [...fields, { name: 'text1', label: 'x', type: 'text' }]).name).toBe('text2')
    expect(newField('choice', fields).options).toHaveLength(2)
  })

  it('move a field and drop a condition that would point below itself', () => {
    const moved = moveField(fields, 1, 0)
    expect(moved.map((f) => f.name)).toEqual(['b', 'a', 'c'])
    expect(moved[0]?.showIf).toBeUndefined()
    expect(moveField(fields, 2, 0)[2]?.showIf).toEqual({ field: 'a', equals: true })
  })

  it('carry a rename into conditions, and drop them when the field goes', () => {
    const renamed = changeField(fields, 0, { ...fields[0]!, name: 'hasA' })
    expect(renamed[1]?.showIf).toEqual({ field: 'hasA', equals: true })
    expect(removeField(fields, 0)[0]?.showIf).toBeUndefined()
  })
})
