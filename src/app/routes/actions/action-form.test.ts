import { describe, expect, it } from 'vitest'
import { can } from '../../../shared/permissions'
import { ACTION_TEXT, DELEGATION_TEXT } from '../../../shared/texts'
import { draftOf, formOf, lackingOf, patchOf, problemsOf, starterOf } from './action-form'
import { cronPreview } from './cron'

describe('action form', () => {
  it('round-trips a stored action and patches only what changed', () => {
    const doc = {
      name: 'Nightly',
      enabled: true,
      trigger: { type: 'CRON', cron: '0 3 * * *', timezone: 'Europe/Berlin' },
      code: 'return 1',
      timeLimitMs: 500,
      memoryLimitBytes: 8 * 1024 * 1024,
    }
    const form = formOf(doc)
    expect(form.memoryMb).toBe('8')
    expect(draftOf(form)).toEqual(doc)
    expect(patchOf(form, { ...form, code: 'return 2' })).toEqual({ code: 'return 2' })
  })

  it('replaces the trigger whole, so no stale field of the old type stays', () => {
    const form = formOf({ name: 'a', code: '', trigger: { type: 'CRON', cron: '* * * * *' } })
    const patch = patchOf(form, { ...form, type: 'EVENT', collection: 'orders', operations: ['create'] })
    expect(patch).toEqual({
      trigger: { type: 'EVENT', cron: null, collection: 'orders', operations: ['create'] },
    })
  })

  it('reports a bad cron, a bad time zone, missing operations and bad limits by field', () => {
    const base = formOf(starterOf('x', 'CRON'))
    expect(problemsOf(base)).toEqual({})
    expect(problemsOf({ ...base, cron: 'every day' }).cron).toMatch(/Not a valid cron expression/)
    expect(problemsOf({ ...base, timezone: 'Mars/Olympus' }).timezone).toMatch(/IANA/)
    const event = formOf(starterOf('x', 'EVENT'))
    expect(problemsOf({ ...event, operations: [] }).operations).toBeTruthy()
    expect(problemsOf({ ...base, timeLimitMs: '99999' }).form).toMatch(/timeLimitMs/)
    expect(problemsOf({ ...base, memoryMb: 'lots' }).form).toMatch(/memoryLimitBytes/)
  })

  it('previews a schedule in words and its next times in its time zone', () => {
    const now = new Date('2026-01-01T10:00:00Z')
    const p = cronPreview('30 9 * * *', 'Asia/Tokyo', now, 2)
    expect(p.ok).toBe(true)
    if (!p.ok) return
    expect(p.words).toBe('At 09:30')
    expect(p.next.map((d) => d.toISOString())).toEqual([
      '2026-01-02T00:30:00.000Z',
      '2026-01-03T00:30:00.000Z',
    ])
  })

  it('names the rights an edit would lend that the session lacks, by field', () => {
    const mine = (perms: string[]) => (p: string) => can(perms, p)
    const base = formOf({ name: 'a', code: '', trigger: { type: 'GET' }, runAs: 'ann' })
    const event = { ...base, type: 'EVENT' as const, collection: 'contacts', operations: ['create' as const] }
    expect(lackingOf(base, event, 'ann', mine(['actions:*']))).toEqual({
      collection: DELEGATION_TEXT.needs(ACTION_TEXT.watchWhat('contacts'), 'data/contacts:r'),
    })
    expect(lackingOf(base, event, 'ann', mine(['actions:*', 'data/contacts:r']))).toEqual({})
    // Someone else's action: its code needs the right to change that account; its name needs nothing.
    expect(lackingOf(base, { ...base, code: 'return 1' }, 'bob', mine(['actions:*']))).toEqual({
      runAs: DELEGATION_TEXT.needs(ACTION_TEXT.actAsWhat('ann'), 'users/ann:u'),
    })
    expect(lackingOf(base, { ...base, name: 'b' }, 'bob', mine(['actions:*']))).toEqual({})
    expect(lackingOf(base, base, 'bob', mine([]))).toEqual({})
  })
})
