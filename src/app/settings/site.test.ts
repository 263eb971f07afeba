import { describe, expect, it } from 'vitest'
import { DARK_SURFACE } from '../../shared/constants'
import { applyTheme, safeLink, siteFromSettings } from './site'

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

describe('theme-color (issue 11)', () => {
  /** Just enough of a Document for applyTheme: the root's dataset and style, and the meta tag. */
  const fakeDoc = () => {
    const meta = { content: '', setAttribute: (_: string, v: string) => (meta.content = v) }
    const doc = {
      documentElement: {
        dataset: {} as Record<string, string>,
        style: { setProperty() {}, removeProperty() {} },
      },
      querySelector: () => meta,
    }
    return { doc: doc as unknown as Document, meta }
  }
  it('follows dark mode: the dark surface there, the primary colour in light mode', () => {
    const { doc, meta } = fakeDoc()
    applyTheme({ primary: '#112233', darkMode: false }, doc)
    expect(meta.content).toBe('#112233')
    applyTheme({ primary: '#112233', darkMode: true }, doc)
    expect(meta.content).toBe(DARK_SURFACE)
  })
})
