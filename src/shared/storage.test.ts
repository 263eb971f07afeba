import { describe, expect, it } from 'vitest'
import { stampFileName } from './storage'

describe('stampFileName (SPEC §9 {{TIMESTAMP}})', () => {
  const at = new Date(2026, 0, 5, 7, 3, 59)

  it('replaces the token with a year-month-day_hour-minute stamp in local time', () => {
    expect(stampFileName('report {{TIMESTAMP}}.pdf', at)).toBe('report 2026-01-05_07-03.pdf')
  })

  it('replaces every occurrence and leaves other braces alone', () => {
    expect(stampFileName('{{TIMESTAMP}}-{{NAME}}-{{TIMESTAMP}}', at)).toBe(
      '2026-01-05_07-03-{{NAME}}-2026-01-05_07-03',
    )
  })

  it('leaves a name without the token unchanged', () => {
    expect(stampFileName('plain.txt', at)).toBe('plain.txt')
  })
})
