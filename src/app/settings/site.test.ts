import { describe, expect, it } from 'vitest'
import { safeLink, siteFromSettings } from './site'

describe('site configuration', () => {
  it('takes the legal links from the settings, http(s) only', () => {
    const site = siteFromSettings([
      { _id: 'title', value: 'Acme' },
      { _id: 'terms_of_service_url', value: ' https://example.com/terms ' },
      { _id: 'privacy_policy_url', value: 'javascript:alert(1)' },
    ])
    expect(site.title).toBe('Acme')
    expect(site.terms_of_service_url).toBe('https://example.com/terms')
    // A link that would run script in every visitor's console never becomes an href.
    expect(site.privacy_policy_url).toBeUndefined()
  })

  it('renders no logo that is not an image address (issue 10), however it was stored', () => {
    const logo = (value: unknown) => siteFromSettings([{ _id: 'logo', value }]).logo
    for (const bad of ['javascript:alert(1)', 'data:text/html,<b>x</b>', '//evil.example/l.png', 42])
      expect(logo(bad), String(bad)).toBeUndefined()
    expect(logo(' https://cdn.example.com/logo.svg ')).toBe('https://cdn.example.com/logo.svg')
    expect(logo('/files/logo.png')).toBe('/files/logo.png')
    expect(logo('data:image/png;base64,AAAA')).toBe('data:image/png;base64,AAAA')
  })

  it('accepts only absolute http(s) addresses as links', () => {
    expect(safeLink('http://example.com/p')).toBe('http://example.com/p')
    expect(safeLink('data:text/html,<b>x</b>')).toBeUndefined()
    expect(safeLink('/privacy')).toBeUndefined()
    expect(safeLink('')).toBeUndefined()
    expect(safeLink(42)).toBeUndefined()
  })
})
