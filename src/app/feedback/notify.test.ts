import { afterEach, expect, test, vi } from 'vitest'
import {
  batchSavedToast,
  deletedPartialToast,
  deletedToast,
  SCREENS_TEXT,
  savedToast,
} from '../../shared/messages'
import { notifyBatchSaved, notifyDeleted, notifySaved } from './notify'
import { toast } from './toast-store'

afterEach(() => {
  toast.clear()
  vi.unstubAllGlobals()
})

const last = () => toast.list().at(-1)

test('server reachable, a delete of everything says "Deleted N item(s)"', () => {
  notifyDeleted(3, 3, true)
  expect(last()?.message).toBe(deletedToast(3))
  expect(last()?.kind).toBe('success')
})

test('server out of reach, the same delete says it is kept on this device and sent later, spec text first', () => {
  notifyDeleted(3, 3, false)
  expect(last()?.message).toBe(SCREENS_TEXT.deletedOffline(3))
  expect(last()?.message.startsWith(deletedToast(3))).toBe(true)
  expect(last()?.kind).toBe('success')
})

test("the screen's reachability decides, not the browser's network flag", () => {
  // The browser has a network but the server is cut off: the offline wording (the bug of issue 20).
  vi.stubGlobal('navigator', { onLine: true })
  notifyDeleted(2, 2, false)
  expect(last()?.message).toBe(SCREENS_TEXT.deletedOffline(2))
  // And the other way round: no flag flip turns a delete the server took into "on this device".
  vi.stubGlobal('navigator', { onLine: false })
  notifyDeleted(2, 2, true)
  expect(last()?.message).toBe(deletedToast(2))
})

test('a partial delete is a warning either way', () => {
  notifyDeleted(1, 3, false)
  expect(last()?.message).toBe(deletedPartialToast(1, 3))
  expect(last()?.kind).toBe('warning')
  notifyDeleted(1, 3, true)
  expect(last()?.message).toBe(deletedPartialToast(1, 3))
})

test('server reachable, a save says "{thing} was saved successfully", the spec text exactly', () => {
  notifySaved('Document pen', true)
  expect(last()?.message).toBe(savedToast('Document pen'))
  expect(last()?.message).toBe('Document pen was saved successfully')
  expect(last()?.kind).toBe('success')
})

test("a save out of the server's reach says it is on this device, though the browser has a network", () => {
  // The server cut off behind a working network (issue 20): navigator.onLine is true, and a save that
  // only reached the outbox must not say "was saved successfully".
  vi.stubGlobal('navigator', { onLine: true })
  notifySaved('Document pen', false)
  expect(last()?.message).toBe(SCREENS_TEXT.savedOffline)
  expect(last()?.message).not.toContain('saved successfully')
  expect(last()?.kind).toBe('success')
  // And the browser's flag alone does not turn a save the server took into "on this device".
  vi.stubGlobal('navigator', { onLine: false })
  notifySaved('Document pen', true)
  expect(last()?.message).toBe(savedToast('Document pen'))
})

test("several changes all saved out of the server's reach say they are on this device", () => {
  notifyBatchSaved(3, 3, 'settings', true)
  expect(last()?.message).toBe(batchSavedToast(3, 3, 'settings'))
  notifyBatchSaved(3, 3, 'settings', false)
  expect(last()?.message).toBe(SCREENS_TEXT.savedOffline)
  // A partial save is a warning with the counts either way.
  notifyBatchSaved(2, 3, 'settings', false)
  expect(last()?.message).toBe(batchSavedToast(2, 3, 'settings'))
  expect(last()?.kind).toBe('warning')
})
