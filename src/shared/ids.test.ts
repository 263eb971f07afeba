import { describe, expect, it } from 'vitest'
import { isValidCollectionName, isValidCollectionPath, isValidId } from './ids'

describe('isValidCollectionPath', () => {
  it('takes one collection name or family/name, each part a valid collection name', () => {
    for (const ok of ['users', 'settings', 'data/contacts', 'logs/client', 'data/a_b-9'])
      expect(isValidCollectionPath(ok), ok).toBe(true)
  })

  it('refuses empty parts, deeper paths, traversal and characters outside the name rule', () => {
    const bad = [
      '',
      '/',
      'data/',
      '/data',
      'data//x',
      'data/a/b',
      'data/..',
      '../x',
      'data/a b',
      'data/_x',
      'x'.repeat(65),
      7,
      null,
    ]
    for (const b of bad) expect(isValidCollectionPath(b), String(b)).toBe(false)
  })

  it('agrees with isValidCollectionName part by part', () => {
    expect(isValidCollectionPath(`data/${'y'.repeat(64)}`)).toBe(isValidCollectionName('y'.repeat(64)))
    expect(isValidCollectionPath(`data/${'y'.repeat(65)}`)).toBe(false)
    expect(isValidId('a.b')).toBe(true)
  })
})
