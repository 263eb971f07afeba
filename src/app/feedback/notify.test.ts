import { afterEach, expect, test } from 'vitest'
import { deletedPartialToast, deletedToast, SCREENS_TEXT } from '../../shared/messages'
import { notifyDeleted } from './notify'
import { toast } from './toast-store'

afterEach(() => toast.clear())

const last = () => toast.list().at(-1)

test('online, a delete of everything says "Deleted N item(s)"', () => {
  notifyDeleted(3, 3, true)
  expect(last()?.message).toBe(deletedToast(3))
})

test('offline, the same delete says it is kept on this device and sent later, keeping the spec text', () => {
  notifyDeleted(3, 3, false)
  expect(last()?.message).toBe(SCREENS_TEXT.deletedOffline(3))
  expect(last()?.message).toContain(deletedToast(3))
  expect(last()?.message).not.toBe(deletedToast(3))
})

test('a partial delete is a warning either way', () => {
  notifyDeleted(1, 3, false)
  expect(last()?.message).toBe(deletedPartialToast(1, 3))
  expect(last()?.kind).toBe('warning')
})
