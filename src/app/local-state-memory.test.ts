/**
 * Where IndexedDB does not exist at all (no fake-indexeddb here), the local state still works for the
 * tab's lifetime: a write resolves, never throws, and the value reads back from memory.
 */
import { expect, it } from 'vitest'
import { preloadLocal, readLocal, writeLocal } from './local-state'

it('keeps values in memory and resolves writes when there is no IndexedDB', async () => {
  expect(typeof (globalThis as { indexedDB?: unknown }).indexedDB).toBe('undefined')
  await preloadLocal()
  await expect(writeLocal('sidebarCollapsed', true)).resolves.toBeUndefined()
  expect(readLocal('sidebarCollapsed')).toBe(true)
  await expect(writeLocal('sidebarCollapsed', null)).resolves.toBeUndefined()
  expect(readLocal('sidebarCollapsed')).toBeUndefined()
})
