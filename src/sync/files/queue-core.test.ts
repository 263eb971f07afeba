import { describe, expect, it } from 'vitest'
import { STORAGE_TEXT } from '../../shared/texts'
import { namesProblem } from './queue-core'

const long = 'n'.repeat(256)
const refused = STORAGE_TEXT.nameTooLong(256)

describe('namesProblem (the shared length rule, checked before a write is queued)', () => {
  it('refuses every write that would make a name over 255 bytes', () => {
    expect(namesProblem({ kind: 'upload', folder: '', name: long, size: 1, type: '' })).toBe(refused)
    expect(namesProblem({ kind: 'upload', folder: `a/${long}`, name: 'x.txt', size: 1, type: '' })).toBe(
      refused,
    )
    expect(namesProblem({ kind: 'mkdir', root: 'storage', folder: 'a', name: long })).toBe(refused)
    expect(namesProblem({ kind: 'move', root: 'storage', path: 'a.txt', to: `b/${long}` })).toBe(refused)
    expect(namesProblem({ kind: 'copy', root: 'static', from: 'a.txt', to: long })).toBe(refused)
  })

  it('counts UTF-8 bytes: 128 accented letters are too long, 255 bytes are not', () => {
    expect(namesProblem({ kind: 'mkdir', root: 'storage', folder: '', name: 'é'.repeat(128) })).toBe(
      STORAGE_TEXT.nameTooLong(256),
    )
    expect(
      namesProblem({ kind: 'mkdir', root: 'storage', folder: '', name: `${'é'.repeat(127)}a` }),
    ).toBeNull()
    expect(namesProblem({ kind: 'delete', root: 'storage', path: 'docs/a.txt' })).toBeNull()
  })
})
