import { afterEach, expect, test, vi } from 'vitest'
import { AUTH_SCREENS_TEXT } from '../../shared/texts'
import { isNetworkError, onlineOnlyError } from './online-only'

afterEach(() => vi.unstubAllGlobals())

test('a fetch that found no network is told as "needs a connection", never queued', () => {
  expect(isNetworkError(new TypeError('Failed to fetch'))).toBe(true)
  expect(onlineOnlyError('Changing a password', new TypeError('Failed to fetch'))).toBe(
    AUTH_SCREENS_TEXT.needsNetwork('Changing a password'),
  )
})

test("the server's own refusal is shown as it is", () => {
  expect(isNetworkError(new Error('Wrong password'))).toBe(false)
  expect(onlineOnlyError('Changing a password', new Error('Wrong password'))).toBe('Wrong password')
})

test('with the browser offline any failure is the offline text', () => {
  vi.stubGlobal('navigator', { onLine: false })
  expect(onlineOnlyError('Saving the PDF', new Error('whatever'))).toBe(
    AUTH_SCREENS_TEXT.needsNetwork('Saving the PDF'),
  )
})
