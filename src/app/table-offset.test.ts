/**
 * The table offsets the first frame uses: per collection, only at the width they were measured at.
 * Against the real local state, over fake-indexeddb.
 */
import 'fake-indexeddb/auto'
import { beforeEach, describe, expect, it } from 'vitest'
import { readLocal, writeLocal } from './local-state'
import { rememberedTableOffset, rememberTableOffset } from './table-offset'

beforeEach(async () => {
  await writeLocal('tableOffsets', null)
})

describe('table offsets', () => {
  it('gives back an offset at the width it was measured at, and none at another', () => {
    rememberTableOffset('data/a', 375, 216)
    expect(rememberedTableOffset('data/a', 375)).toBe(216)
    expect(rememberedTableOffset('data/a', 1280)).toBeUndefined()
    expect(rememberedTableOffset('data/b', 375)).toBeUndefined()
    rememberTableOffset('data/a', 1280, 70)
    expect(rememberedTableOffset('data/a', 1280)).toBe(70)
    expect(rememberedTableOffset('data/a', 375)).toBeUndefined()
  })

  it('keeps the 20 collections measured last', () => {
    for (let i = 0; i < 25; i++) rememberTableOffset(`data/c${i}`, 800, i + 1)
    expect(Object.keys(readLocal<object>('tableOffsets') ?? {})).toHaveLength(20)
    expect(rememberedTableOffset('data/c4', 800)).toBeUndefined()
    expect(rememberedTableOffset('data/c5', 800)).toBe(6)
    expect(rememberedTableOffset('data/c24', 800)).toBe(25)
  })
})
