import { afterEach, expect, test, vi } from 'vitest'
import {
  batchSavedToast,
  deletedPartialToast,
  deletedToast,
  SCREENS_TEXT,
  savedToast,
} from '../../shared/texts'
import { notifyBatchSaved, notifyDeleted, notifySaved } from './notify'
import { toast } from './toast-store'

afterEach(() => {
  toast.clear()
  vi.unstubAllGlobals()
})

const last = () => toast.list().at(-1)

const pen = { collection: 'products', id: 'pen' }

test('a delete the server answered itself says "Deleted N item(s)", a partial one is a warning', () => {
  notifyDeleted(3, 3, true)
  expect(last()?.message).toBe(deletedToast(3))
  expect(last()?.kind).toBe('success')
  notifyDeleted(1, 3, true)
  expect(last()?.message).toBe(deletedPartialToast(1, 3))
  expect(last()?.kind).toBe('warning')
})

test('queued deletes are neutral, never green before the server answers; out of reach they say they wait', () => {
  notifyDeleted(2, 2, true, [pen, { collection: 'products', id: 'ink' }])
  expect(last()?.kind).toBe('info')
  expect(last()?.message).toBe(SCREENS_TEXT.deleting(2))
  notifyDeleted(3, 3, false, [pen])
  expect(last()?.kind).toBe('info')
  expect(last()?.message).toBe(SCREENS_TEXT.deletedOffline(3))
  expect(last()?.message.startsWith(deletedToast(3))).toBe(true)
  // None written at all: the partial warning at once.
  notifyDeleted(0, 1, true, [])
  expect(last()?.kind).toBe('warning')
})

test("the screen's reachability decides the wording, not the browser's network flag", () => {
  // The browser has a network but the server is cut off (issue 20): the offline wording.
  vi.stubGlobal('navigator', { onLine: true })
  notifySaved('Document pen', false, pen)
  expect(last()?.message).toBe(SCREENS_TEXT.savedOffline)
  expect(last()?.message).not.toContain('saved successfully')
  vi.stubGlobal('navigator', { onLine: false })
  notifySaved('Document pen', true, pen)
  expect(last()?.message).toBe(SCREENS_TEXT.saving('Document pen'))
})

test('a queued save is neutral; one the server answered says "{thing} was saved successfully", the spec text', () => {
  notifySaved('Document pen', true, pen)
  expect(last()?.kind).toBe('info')
  expect(last()?.colour).not.toBe('green')
  notifySaved('Token ci', true)
  expect(last()?.message).toBe('Token ci was saved successfully')
  expect(last()?.kind).toBe('success')
})

test('a batch: neutral while queued, the counts by colour when the server answered', () => {
  notifyBatchSaved(3, 3, 'settings', true, [pen])
  expect(last()?.kind).toBe('info')
  notifyBatchSaved(3, 3, 'settings', false, [pen])
  expect(last()?.message).toBe(SCREENS_TEXT.savedOffline)
  notifyBatchSaved(3, 3, 'settings', true)
  expect(last()?.message).toBe(batchSavedToast(3, 3, 'settings'))
  expect(last()?.kind).toBe('success')
  notifyBatchSaved(2, 3, 'settings', true)
  expect(last()?.kind).toBe('warning')
  notifyBatchSaved(0, 3, 'settings', true, [])
  expect(last()?.kind).toBe('error')
})

test('change turns a shown toast into its outcome in place, and says when it has closed', () => {
  const id = toast.info('Saving Document pen…')
  expect(toast.change(id, 'success', savedToast('Document pen'))).toBe(true)
  expect(toast.list()).toHaveLength(1)
  expect(last()).toMatchObject({ id, kind: 'success', colour: 'green', message: savedToast('Document pen') })
  toast.dismiss(id)
  expect(toast.change(id, 'error', 'x')).toBe(false)
})
