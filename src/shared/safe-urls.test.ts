import { describe, expect, it } from 'vitest'
import { isHttpUrl, isSafeImageSrc, isSitePath, originOf } from './safe-urls'

describe('safe urls', () => {
  it('http(s) addresses only', () => {
    expect(isHttpUrl('https://a.example/x')).toBe(true)
    expect(isHttpUrl('http://a.example')).toBe(true)
    for (const bad of [
      'javascript:alert(1)',
      'JAVASCRIPT:alert(1)',
      'data:text/html,x',
      'a.example',
      '',
      null,
      7,
    ])
      expect(isHttpUrl(bad), String(bad)).toBe(false)
  })

  it('site paths are one leading slash, never another host', () => {
    expect(isSitePath('/files/logo.png')).toBe(true)
    for (const bad of ['//evil.example/x', '/\\evil.example', 'files/logo.png', '/a b'])
      expect(isSitePath(bad), bad).toBe(false)
  })

  it('image sources: addresses, site paths and data:image only', () => {
    expect(isSafeImageSrc('data:image/svg+xml;base64,PHN2Zz4=')).toBe(true)
    expect(isSafeImageSrc('data:image/png,abc')).toBe(true)
    for (const bad of ['data:text/html,<script>x</script>', 'data:,x', 'javascript:x', 'blob:https://a/x'])
      expect(isSafeImageSrc(bad), bad).toBe(false)
  })

  it('origins: scheme, host and port; a bare host means https', () => {
    expect(originOf('https://A.example:443/path?q')).toBe('https://a.example')
    expect(originOf('http://a.example:8080')).toBe('http://a.example:8080')
    expect(originOf('partner.example')).toBe('https://partner.example')
    for (const bad of ['javascript:alert(1)', 'file:///etc/passwd', '', 5]) expect(originOf(bad)).toBe(null)
  })
})
