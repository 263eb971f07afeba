import { describe, expect, it } from 'vitest'
import { sampleOnlyFields, templateDataFor, userAddress } from './message-recipients'

const recipient = {
  address: 'ann@example.com',
  user: 'ann',
  group: null,
  name: 'Ann',
  email: 'ann@example.com',
}

describe('userAddress', () => {
  it('is the e-mail, the E.164 phone (normalised) or the id, per channel', () => {
    const u = { _id: 'ann', email: 'ann@example.com', phone: '+1 (555) 000-0001' }
    expect(userAddress(u, 'email')).toBe('ann@example.com')
    expect(userAddress(u, 'sms')).toBe('+15550000001')
    expect(userAddress(u, 'push')).toBe('ann')
    expect(userAddress({ _id: 'cy' }, 'sms')).toBeNull()
  })
})

describe('templateDataFor (issue 36 #4)', () => {
  it('puts the recipient’s own name and e-mail in place of the sample’s', () => {
    const sample = { name: 'Ada', email: 'ada@example.com', order: '1042' }
    expect(templateDataFor(sample, true, recipient)).toEqual({
      name: 'Ann',
      email: 'ann@example.com',
      order: '1042',
      recipient,
    })
    // Unknown or hidden: empty, never the sample person's.
    expect(templateDataFor(sample, true, { ...recipient, email: null })).not.toHaveProperty('email')
  })

  it('keeps what the sender typed', () => {
    expect(templateDataFor({ name: 'team' }, false, recipient)).toMatchObject({
      name: 'team',
      email: 'ann@example.com',
    })
  })

  it('names the sample fields every recipient gets as they are', () => {
    expect(sampleOnlyFields({ name: 'Ada', email: 'a@x.io', order: '1' })).toEqual(['order'])
  })
})
