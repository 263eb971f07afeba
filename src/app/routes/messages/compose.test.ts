import { describe, expect, it } from 'vitest'
import { EMPTY_DRAFT, parseData, requestBody, typedRecipient } from './compose'

describe('typedRecipient', () => {
  it('checks addresses and numbers with the server rules, per channel', () => {
    expect(typedRecipient('email', 'ann@example.com')).toEqual({
      entry: 'ann@example.com',
      label: 'ann@example.com',
      kind: 'address',
    })
    expect(typedRecipient('email', 'ann@')).toHaveProperty('error')
    expect(typedRecipient('sms', '+1 (555) 000-0002')).toMatchObject({ entry: '+15550000002' })
    expect(typedRecipient('sms', '+12')).toHaveProperty('error')
    expect(typedRecipient('sms', 'ann@example.com')).toEqual({
      error: "'ann@example.com' cannot receive an SMS",
    })
    expect(typedRecipient('call', '+15550000002')).toHaveProperty('error')
  })
})

describe('requestBody', () => {
  const to = [{ entry: 'group:team', label: 'Team', kind: 'group' as const }]
  it('a template with data, and the bcc list', () => {
    const out = requestBody({
      ...EMPTY_DRAFT,
      to,
      bcc: 'a@example.com, b@example.com',
      template: 'w',
      data: '{"x":1}',
    })
    expect(out).toEqual({
      ok: true,
      body: {
        channel: 'email',
        to: ['group:team'],
        bcc: ['a@example.com', 'b@example.com'],
        template: 'w',
        data: { x: 1 },
      },
    })
  })
  it('refuses what the server would refuse', () => {
    expect(requestBody({ ...EMPTY_DRAFT, to: [] })).toMatchObject({ ok: false })
    expect(requestBody({ ...EMPTY_DRAFT, to, subject: 's' })).toMatchObject({ ok: false })
    expect(requestBody({ ...EMPTY_DRAFT, tab: 'sms', to, text: 'x'.repeat(1601) })).toMatchObject({
      ok: false,
    })
    expect(requestBody({ ...EMPTY_DRAFT, tab: 'call', to, room: 'no spaces' })).toMatchObject({ ok: false })
    expect(requestBody({ ...EMPTY_DRAFT, to, template: 'w', data: '[1]' })).toMatchObject({ ok: false })
  })
  it('a call needs only the room', () => {
    expect(requestBody({ ...EMPTY_DRAFT, tab: 'call', to, room: 'standup-1' })).toEqual({
      ok: true,
      body: { channel: 'call', to: ['group:team'], room: 'standup-1' },
    })
  })
  it('a push is a queued request too: a title, and a link that is a site path or http(s)', () => {
    expect(
      requestBody({ ...EMPTY_DRAFT, tab: 'push', to, title: ' Hi ', text: 'Body', link: '/ui/logs' }),
    ).toEqual({
      ok: true,
      body: { channel: 'push', to: ['group:team'], title: 'Hi', body: 'Body', link: '/ui/logs' },
    })
    expect(requestBody({ ...EMPTY_DRAFT, tab: 'push', to })).toMatchObject({ ok: false })
    expect(
      requestBody({ ...EMPTY_DRAFT, tab: 'push', to, title: 'x', link: 'javascript:alert(1)' }),
    ).toMatchObject({ ok: false })
  })
})

describe('parseData', () => {
  it('empty is no data; an array or bad JSON is an error', () => {
    expect(parseData('  ')).toEqual({ ok: true, value: undefined })
    expect(parseData('[]')).toMatchObject({ ok: false })
    expect(parseData('{')).toMatchObject({ ok: false })
  })
})
