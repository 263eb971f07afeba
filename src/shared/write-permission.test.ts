import { describe, expect, test } from 'vitest'
import { cannotDo } from './texts'
import { writeRefusal, writeRequirement } from './write-permission'

describe('writeRequirement: the permission of the request the outbox would send', () => {
  test('create on the collection, update and delete on the document', () => {
    expect(writeRequirement('create', 'data/contacts', 'c1')).toBe('data/contacts:c')
    expect(writeRequirement('update', 'data/contacts', 'c1')).toBe('data/contacts/c1:u')
    expect(writeRequirement('delete', 'logs/client', 'l1')).toBe('logs/client/l1:d')
    expect(writeRequirement('update', 'settings')).toBe('settings:u')
  })
  test('none where the server judges the content: own profile, tokens', () => {
    expect(writeRequirement('update', 'users', 'bob', 'bob')).toBeNull()
    expect(writeRequirement('update', 'users', 'alice', 'bob')).toBe('users/alice:u')
    expect(writeRequirement('delete', 'tokens', 't1', 'bob')).toBeNull()
    // Sending is messages/{channel}:c, named by the body: the server (and the composer) check it.
    expect(writeRequirement('create', 'message-requests', 'r1', 'bob')).toBeNull()
  })
})

describe('writeRefusal', () => {
  test('a viewer may not change; the message names the permission', () => {
    expect(writeRefusal(['data:r'], 'update', 'data/contacts', 'c1')).toEqual({
      needed: 'data/contacts/c1:u',
      message: cannotDo('change', 'data/contacts/c1', 'data/contacts/c1:u'),
    })
    expect(writeRefusal(['data:crud'], 'update', 'data/contacts', 'c1')).toBeNull()
  })
  test('a per-document block wins over the collection grant', () => {
    const perms = ['data/contacts:*', 'data/contacts/vip:n']
    expect(writeRefusal(perms, 'delete', 'data/contacts', 'c1')).toBeNull()
    expect(writeRefusal(perms, 'delete', 'data/contacts', 'vip')?.needed).toBe('data/contacts/vip:d')
  })
})
