import { describe, expect, it } from 'vitest'
import { runRetention } from '../../../shared/actions'
import { changedSettings, formFromValues, validateSettings } from './settings-model'

const stored = new Map<string, unknown>([
  ['title', 'Momentum'],
  ['version', '0.1.0'],
  ['pwa', { name: 'Momentum Console', short_name: 'Momentum', extra: 1 }],
  ['theme', { background: '#f6f7f9', primary: '#1f6feb', accent: '#f59e0b', darkMode: false }],
  ['webrtc_port', 3478],
])

describe('settings model', () => {
  it('reads stored values into the form', () => {
    const f = formFromValues(stored)
    expect(f.title).toBe('Momentum')
    expect(f.webrtc_port).toBe('3478')
    expect(f.theme.primary).toBe('#1f6feb')
    expect(f.contact).toBe('')
  })

  it('reports nothing changed for an untouched form', () => {
    expect(changedSettings(formFromValues(stored), stored)).toEqual([])
  })

  it('lists only changed settings, keeping unknown nested fields', () => {
    const f = formFromValues(stored)
    f.title = 'Acme'
    f.pwa.short_name = 'Acme'
    f.webrtc_port = '5349'
    expect(changedSettings(f, stored)).toEqual([
      ['title', 'Acme'],
      ['pwa', { name: 'Momentum Console', short_name: 'Acme', extra: 1 }],
      ['webrtc_port', 5349],
    ])
  })

  it('validates each field with its own message', () => {
    const f = formFromValues(stored)
    expect(validateSettings(f)).toEqual({})
    f.title = ' '
    f.public_url = 'example.com'
    f.contact = 'not an address'
    f.theme.accent = 'orange!'
    f.webrtc_port = '70000'
    f.logo = 'javascript:alert(1)'
    expect(Object.keys(validateSettings(f)).sort()).toEqual(
      ['contact', 'logo', 'public_url', 'theme.accent', 'title', 'webrtc_port'].sort(),
    )
    for (const logo of ['data:text/html,<b>x</b>', '//evil.example/logo.png'])
      expect(validateSettings({ ...f, logo }).logo, logo).toBeDefined()
    for (const logo of ['/files/logo.png', 'https://cdn.example.com/l.svg', 'data:image/png;base64,AAAA'])
      expect(validateSettings({ ...f, logo }).logo, logo).toBeUndefined()
    f.contact = 'ops@example.com'
    f.public_url = 'https://console.example.com'
    expect(validateSettings(f).contact).toBeUndefined()
    expect(validateSettings(f).public_url).toBeUndefined()
  })

  it('saves the footer links and refuses anything but an http(s) address', () => {
    const f = formFromValues(stored)
    expect(f.terms_of_service_url).toBe('')
    f.terms_of_service_url = ' https://example.com/terms '
    f.privacy_policy_url = 'javascript:alert(1)'
    expect(Object.keys(validateSettings(f))).toEqual(['privacy_policy_url'])
    f.privacy_policy_url = 'https://example.com/privacy'
    expect(validateSettings(f)).toEqual({})
    expect(changedSettings(f, stored)).toEqual([
      ['privacy_policy_url', 'https://example.com/privacy'],
      ['terms_of_service_url', 'https://example.com/terms'],
    ])
  })

  it('edits action_runs (run-history pruning) within the server bounds, empty meaning the default', () => {
    const f = formFromValues(new Map([...stored, ['action_runs', { keep: 200 }]]))
    expect(f.action_runs).toEqual({ keep: '200', days: '' })
    f.action_runs = { keep: '0', days: '3651' }
    expect(Object.keys(validateSettings(f)).sort()).toEqual(['action_runs.days', 'action_runs.keep'])
    f.action_runs = { keep: '1.5', days: '7' }
    expect(Object.keys(validateSettings(f))).toEqual(['action_runs.keep'])
    f.action_runs = { keep: '', days: '7' }
    expect(validateSettings(f)).toEqual({})
    expect(changedSettings(f, new Map([['action_runs', { keep: 200 }]]))).toContainEqual([
      'action_runs',
      { days: 7 },
    ])
    // Never set and left empty: nothing to save.
    expect(changedSettings(formFromValues(stored), stored)).toEqual([])
    f.action_runs = { keep: '100000', days: '3650' }
    expect(runRetention(changedSettings(f, stored).find(([id]) => id === 'action_runs')?.[1])).toEqual({
      keep: 100_000,
      days: 3650,
    })
  })
})
