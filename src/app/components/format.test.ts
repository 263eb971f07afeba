import { describe, expect, it } from 'vitest'
import { formatBytes, preview } from './format'

describe('format', () => {
  it('formats bytes in steps of 1024 up to YB', () => {
    expect(formatBytes(0)).toBe('0 B')
    expect(formatBytes(512)).toBe('512 B')
    expect(formatBytes(1024)).toBe('1 KB')
    expect(formatBytes(1536)).toBe('1.5 KB')
    expect(formatBytes(5 * 1024 ** 3)).toBe('5 GB')
    expect(formatBytes(1024 ** 9)).toBe('1024 YB')
  })

  it('previews values on one line', () => {
    expect(preview('a\n b')).toBe('a b')
    expect(preview({ zip: '1' })).toBe('{"zip":"1"}')
    expect(preview('x'.repeat(10), 5)).toBe('xxxx…')
    expect(preview(undefined)).toBe('')
  })
})
