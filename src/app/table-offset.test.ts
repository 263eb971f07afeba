/** The table offsets the first frame uses: per collection, only at the width they were measured at. */
import { describe, expect, it, vi } from 'vitest'

const stored = new Map<string, unknown>()
vi.mock('./local-state', () => ({
  readLocal: (key: string) => stored.get(key),
  writeLocal: async (key: string, value: unknown) => {
    stored.set(key, value)
  },
}))

describe('table offsets', () => {
  it('gives back an offset at the width it was measured at, and none at another', async () => {
    const { rememberTableOffset, rememberedTableOffset } = await import('./table-offset')
    rememberTableOffset('data/a', 375, 216)
    expect(rememberedTableOffset('data/a', 375)).toBe(216)
    expect(rememberedTableOffset('data/a', 1280)).toBeUndefined()
    expect(rememberedTableOffset('data/b', 375)).toBeUndefined()
    rememberTableOffset('data/a', 1280, 70)
    expect(rememberedTableOffset('data/a', 1280)).toBe(70)
    expect(rememberedTableOffset('data/a', 375)).toBeUndefined()
  })

  it('keeps the 20 collections measured last', async () => {
    const { rememberTableOffset, rememberedTableOffset } = await import('./table-offset')
    for (let i = 0; i < 25; i++) rememberTableOffset(`data/c${i}`, 800, i + 1)
    expect(Object.keys(stored.get('tableOffsets') as object)).toHaveLength(20)
    expect(rememberedTableOffset('data/c4', 800)).toBeUndefined()
    expect(rememberedTableOffset('data/c5', 800)).toBe(6)
    expect(rememberedTableOffset('data/c24', 800)).toBe(25)
  })
})
