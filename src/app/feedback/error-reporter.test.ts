import { describe, expect, it } from 'vitest'
import type { ClientLogEntry } from './client-log'
import { installErrorReporter, rejectionLevel, reportError } from './error-reporter'

describe('error reporter', () => {
  it('logs rejections as ERROR without a code or with one of 500 and up, else WARN (SPEC §8)', () => {
    expect(rejectionLevel(new Error('x'))).toBe('ERROR')
    expect(rejectionLevel('plain text')).toBe('ERROR')
    expect(rejectionLevel({ status: 500, message: 'down' })).toBe('ERROR')
    expect(rejectionLevel({ status: 503 })).toBe('ERROR')
    expect(rejectionLevel({ status: 404, message: 'Not found' })).toBe('WARN')
    expect(rejectionLevel({ code: 403 })).toBe('WARN')
  })

  it('toasts the message and logs it with where it happened', () => {
    const toasts: string[] = []
    const logs: ClientLogEntry[] = []
    const ports = {
      toastError: (m: string) => toasts.push(m),
      log: (e: ClientLogEntry) => logs.push(e),
      where: () => '/ui/users',
    }
    reportError(ports, Object.assign(new Error('Forbidden thing'), { status: 403 }), 'rejection')
    reportError(ports, new TypeError('x is undefined'), 'error')
    expect(toasts).toEqual(['Forbidden thing', 'x is undefined'])
    expect(logs.map((l) => [l.level, l.log, l.ctx.url, l.ctx.code])).toEqual([
      ['WARN', 'Forbidden thing', '/ui/users', 403],
      ['ERROR', 'x is undefined', '/ui/users', null],
    ])
  })

  it('ignores rejections the session-expiry path already handled, and reports every other one', () => {
    const toasts: string[] = []
    const logs: ClientLogEntry[] = []
    const expiry = Object.assign(new Error('Login required'), { status: 401 })
    const target = new EventTarget()
    const stop = installErrorReporter(
      {
        toastError: (m) => toasts.push(m),
        log: (e) => logs.push(e),
        where: () => '/ui/users',
        handled: (reason) => reason === expiry,
      },
      target as unknown as Window,
    )
    const reject = (reason: unknown) =>
      target.dispatchEvent(Object.assign(new Event('unhandledrejection'), { reason }))
    reject(expiry)
    // A 401 that did not end the session (a wrong password nobody caught) is still reported.
    reject(Object.assign(new Error('Wrong password'), { status: 401 }))
    stop()
    expect(toasts).toEqual(['Wrong password'])
    expect(logs.map((l) => l.log)).toEqual(['Wrong password'])
  })
})
