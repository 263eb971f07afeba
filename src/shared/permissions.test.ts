import { describe, expect, it } from 'vitest'
import {
  can,
  check,
  decide,
  methodLetter,
  PermissionSyntaxError,
  parsePermission,
  parsePermissions,
} from './permissions'

const allowed = (perms: string[], path: string, m: 'c' | 'r' | 'u' | 'd') =>
  decide(parsePermissions(perms), path, m).allowed

describe('permission syntax', () => {
  it('parses path:letters with c r u d', () => {
    const g = parsePermission('users:cr')
    expect(g.path).toBe('users')
    expect([...g.methods].sort()).toEqual(['c', 'r'])
    expect(g.all).toBe(false)
  })
  it('* grants every method', () => {
    expect([...parsePermission('users:*').methods].sort()).toEqual(['c', 'd', 'r', 'u'])
  })
  it.each(['users', ':r', 'users:x', 'users:rn', 'us ers:r', 'users:'])('rejects %s', (raw) => {
    expect(() => parsePermission(raw)).toThrow(PermissionSyntaxError)
  })
  it('ignores entries that do not parse instead of widening access', () => {
    expect(parsePermissions(['bad', 'users:r'])).toHaveLength(1)
  })
})

describe('matching', () => {
  it('denies by default', () => {
    expect(allowed([], 'users', 'r')).toBe(false)
  })
  it('needs a shared method', () => {
    expect(allowed(['users:r'], 'users', 'r')).toBe(true)
    expect(allowed(['users:r'], 'users', 'u')).toBe(false)
  })
  it('matches by path prefix on segment boundaries', () => {
    expect(allowed(['data:r'], 'data/contacts/1', 'r')).toBe(true)
    expect(allowed(['data:r'], 'database', 'r')).toBe(false)
  })
  it('ignores leading and trailing slashes', () => {
    expect(allowed(['/users/:r'], '/users/alice/', 'r')).toBe(true)
  })
  it('supports wildcards in the path', () => {
    expect(allowed(['*:*'], 'anything/at/all', 'd')).toBe(true)
    expect(allowed(['data/*/public:r'], 'data/contacts/public', 'r')).toBe(true)
    expect(allowed(['data/*/public:r'], 'data/contacts/private', 'r')).toBe(false)
    expect(allowed(['logs/c*:r'], 'logs/client', 'r')).toBe(true)
  })
  it('the longer, more specific path wins', () => {
    expect(allowed(['data:*', 'data/secret:r'], 'data/secret', 'd')).toBe(true) // only data:* shares d
    expect(allowed(['*:*', 'users:n'], 'users/alice', 'r')).toBe(false)
    expect(allowed(['users:n', 'users/alice:r'], 'users/alice', 'r')).toBe(true)
    expect(allowed(['users:n', 'users/alice:r'], 'users/bob', 'r')).toBe(false)
  })
  it('a literal path beats a wildcard of the same length', () => {
    expect(allowed(['data/*:n', 'data/a:r'], 'data/a', 'r')).toBe(true)
  })
  it('n blocks every method', () => {
    for (const m of ['c', 'r', 'u', 'd'] as const)
      expect(allowed(['users:*', 'users/root:n'], 'users/root', m)).toBe(false)
  })
  it('on a full tie n wins, failing closed', () => {
    expect(allowed(['users:r', 'users:n'], 'users', 'r')).toBe(false)
  })
  it('reports the winning grant', () => {
    const d = decide(parsePermissions(['*:*', 'logs:r']), 'logs/client', 'r')
    expect(d.winner?.raw).toBe('logs:r')
  })
})

describe('requirements and messages', () => {
  it('a requirement with several letters is met by any one', () => {
    expect(can(['discounts:u'], 'discounts:cud')).toBe(true)
    expect(can(['discounts:r'], 'discounts:cud')).toBe(false)
  })
  it('a requirement without letters is met by any method', () => {
    expect(can(['ai:c'], 'ai')).toBe(true)
    expect(can([], 'ai')).toBe(false)
  })
  it("fails 'any' with 'Requires one of: ...'", () => {
    expect(check(['users:r'], ['logs:r', 'logs/server:r'], 'any')).toEqual({
      ok: false,
      message: 'Requires one of: logs:r, logs/server:r',
    })
    expect(check(['logs:r'], ['logs:r', 'logs/server:r'], 'any').ok).toBe(true)
  })
  it("fails 'all' with 'Requires all: ...'", () => {
    expect(check(['users:r'], ['users:r', 'groups:r'], 'all')).toEqual({
      ok: false,
      message: 'Requires all: users:r, groups:r',
    })
    expect(check(['users:cr'], ['users:cr'], 'all').ok).toBe(true)
    expect(check(['users:c'], ['users:cr'], 'all').ok).toBe(false)
  })
  it('maps HTTP methods to letters', () => {
    expect(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'].map(methodLetter)).toEqual([
      'r',
      'c',
      'u',
      'u',
      'd',
      'r',
    ])
  })
})

describe('permissionsGained / notGrantable (a group edit, issue 35)', () => {
  it('counts what the new list allows that the stored one did not, and what the editor lacks of it', async () => {
    const { notGrantable, parsePermissions, permissionsGained } = await import('./permissions')
    expect(permissionsGained(['data:r', 'contacts:r'], ['data:r'])).toEqual([])
    expect(permissionsGained(['data:r'], ['data:rw', 'users:n'])).toEqual([])
    expect(permissionsGained(['data:r'], ['data:ru'])).toEqual(['data:u'])
    expect(permissionsGained(['data:r', 'data/payroll:n'], ['data:r'])).toEqual(['data/payroll:r'])
    const held = parsePermissions(['data/notes:crud', 'groups/team:u'])
    expect(notGrantable(held, ['contacts:r'], ['contacts:r', 'data/notes:c', '*:*'])).toEqual([
      'contacts:cud',
      '*:crud',
    ])
    expect(notGrantable(held, ['contacts:r'], ['contacts:r', 'data/notes:c'])).toEqual([])
    expect(notGrantable(held, [], ['data/notes:r'])).toEqual([])
  })
})
