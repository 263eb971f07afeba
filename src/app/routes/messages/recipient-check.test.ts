import { describe, expect, it } from 'vitest'
import type { SyncDoc } from '../../../db/types'
import { MESSAGING_TEXT } from '../../../shared/texts'
import { checkRecipients } from './recipient-check'
import { draftFromRequest } from './request-draft'

const user = (id: string, fields: Record<string, unknown>): SyncDoc =>
  ({ _id: id, _rev: 1, _created: '', _updated: '', ...fields }) as SyncDoc
const users = [
  user('ann', { name: 'Ann', email: 'ann@example.com', phone: '+1 555 000 0001', groups: ['team'] }),
  user('cy', { name: 'Cy', groups: ['team'] }),
  user('dee', { name: 'Dee', email: 'dee@example.com', groups: ['team'] }),
]

describe('checkRecipients (issue 36)', () => {
  it('refuses a named user without the channel’s address, in the server’s words', () => {
    const out = checkRecipients([{ entry: 'user:cy', label: 'Cy', kind: 'user' }], users, 'sms')
    expect(out.errors).toEqual([MESSAGING_TEXT.noAddress('cy', 'sms')])
    expect(out.targets).toEqual([])
  })

  it('warns about group members the server skips, and reaches the others with their own fields', () => {
    const out = checkRecipients([{ entry: 'group:team', label: 'Team (group)', kind: 'group' }], users, 'sms')
    expect(out.errors).toEqual([])
    expect(out.warnings).toEqual(['2 members of team have no phone number and are skipped: cy, dee'])
    expect(out.targets).toEqual([
      { address: '+15550000001', user: 'ann', group: 'team', name: 'Ann', email: 'ann@example.com' },
    ])
  })

  it('leaves users this device does not know to the server', () => {
    const out = checkRecipients([{ entry: 'user:zed', label: 'zed', kind: 'user' }], users, 'email')
    expect(out).toEqual({ targets: [], errors: [], warnings: [] })
  })
})

describe('draftFromRequest', () => {
  it('puts a refused request back as the draft that made it', () => {
    const doc = user('r1', { channel: 'sms', to: ['user:ann', 'group:team', '+15550007777'], text: 'Hi' })
    const draft = draftFromRequest(doc, users, [user('team', { name: 'Team' })])
    expect(draft).toMatchObject({ tab: 'sms', text: 'Hi' })
    expect(draft.to.map((p) => p.label)).toEqual(['Ann', 'Team (group)', '+15550007777'])
  })
})
