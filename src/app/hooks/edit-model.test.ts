import { describe, expect, it } from 'vitest'
import { diffPatch } from '../../shared/merge-patch'
import { adopt, commit, edit, initModel, isModified, redo, undo } from './edit-model'

type Doc = Record<string, unknown>
const v1 = { _rev: 1 }
const v2 = { _rev: 2 }

describe('edit model: the version an edit started from', () => {
  it('an unmodified form follows live changes, base and version included', () => {
    const m = adopt(initModel<Doc, object>({ name: 'Pen' }, v1), { name: 'Fountain pen' }, v2)
    expect(m.value).toEqual({ name: 'Fountain pen' })
    expect(m.base).toEqual({ name: 'Fountain pen' })
    expect(m.baseVersion).toBe(v2)
    expect(isModified(m)).toBe(false)
  })

  it("a modified form keeps the user's value and the opened base; the diff is only the user's change", () => {
    let m = initModel<Doc, object>({ name: 'Pen' }, v1)
    m = edit(m, { name: 'Pen', price: 2 })
    m = adopt(m, { name: 'Fountain pen' }, v2)
    expect(m.original).toEqual({ name: 'Fountain pen' })
    expect(m.value).toEqual({ name: 'Pen', price: 2 })
    expect(m.base).toEqual({ name: 'Pen' })
    expect(m.baseVersion).toBe(v1)
    expect(isModified(m)).toBe(true)
    // What a save sends: the user's change relative to what they opened — not name: 'Pen'.
    expect(diffPatch(m.base, m.value)).toEqual({ price: 2 })
    // Against the live original it would have reverted the other writer's name.
    expect(diffPatch(m.original, m.value)).toEqual({ name: 'Pen', price: 2 })
  })

  it('typing the edit back to what was opened is no change, and the form then takes the live value', () => {
    let m = edit(initModel<Doc, object>({ name: 'Pen' }, v1), { name: 'Pencil' })
    m = adopt(m, { name: 'Fountain pen' }, v2)
    m = edit(m, { name: 'Pen' })
    expect(isModified(m)).toBe(false)
    m = adopt(m, { name: 'Fountain pen', price: 1 }, { _rev: 3 })
    expect(m.value).toEqual({ name: 'Fountain pen', price: 1 })
  })

  it('a user value equal to the new original rebases onto it (nothing left to send)', () => {
    let m = edit(initModel<Doc, object>({ name: 'Pen' }, v1), { name: 'Fountain pen' })
    m = adopt(m, { name: 'Fountain pen' }, v2)
    expect(isModified(m)).toBe(false)
    expect(m.baseVersion).toBe(v2)
  })

  it('undo goes to the latest original and rebases; redo brings the edit back with its own base', () => {
    let m = edit(initModel<Doc, object>({ name: 'Pen' }, v1), { name: 'Pen', price: 2 })
    m = adopt(m, { name: 'Fountain pen' }, v2)
    m = undo(m)
    expect(m.value).toEqual({ name: 'Fountain pen' })
    expect(m.baseVersion).toBe(v2)
    expect(isModified(m)).toBe(false)
    m = redo(m)
    expect(m.value).toEqual({ name: 'Pen', price: 2 })
    expect(m.base).toEqual({ name: 'Pen' })
    expect(m.baseVersion).toBe(v1)
    expect(diffPatch(m.base, m.value)).toEqual({ price: 2 })
  })

  it('commit makes the saved value and its source the new base', () => {
    let m = edit(initModel<Doc, object>({ name: 'Pen' }, v1), { name: 'Pen', price: 2 })
    m = adopt(m, { name: 'Fountain pen' }, v2)
    const saved = { name: 'Fountain pen', price: 2 }
    m = commit(m, saved, { _rev: 2, pending: true })
    expect(isModified(m)).toBe(false)
    expect(m.base).toEqual(saved)
    expect(m.baseVersion).toEqual({ _rev: 2, pending: true })
    expect(m.redo).toBeNull()
  })
})
