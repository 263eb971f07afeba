import { describe, expect, it } from 'vitest'
import { parsePermissions } from '../../../shared/permissions'
import { checkEntries, previewPath, sectionSentence, summary } from './permission-preview'

describe('permission preview', () => {
  it('reports parse errors per entry with the matcher’s own message', () => {
    const checks = checkEntries(['users:r', 'users', 'logs:x', 'data/*:cr'])
    expect(checks.map((c) => c.error === null)).toEqual([true, false, false, true])
    expect(checks[1]!.error).toContain('path:letters')
  })

  it('names the winning entry and why', () => {
    const grants = parsePermissions(['users:*', 'users/admin:n', 'logs:r'])
    const admin = previewPath(grants, 'users/admin')
    expect(admin.every((c) => !c.decision.allowed)).toBe(true)
    expect(admin[0]!.why).toContain('users/admin:n')
    expect(admin[0]!.why).toContain('blocks every method')
    const alice = previewPath(grants, 'users/alice')
    expect(alice.every((c) => c.decision.allowed && c.decision.winner?.raw === 'users:*')).toBe(true)
    const logs = previewPath(grants, 'logs')
    expect(sectionSentence('Logs', logs)).toBe('can read Logs, cannot create, update, delete')
    expect(previewPath(grants, 'settings')[1]!.why).toContain('refused by default')
  })

  it('summarises what a group can and cannot do', () => {
    const text = summary(parsePermissions(['logs:r']))
    expect(text).toContain('can read Logs, cannot create, update, delete')
    expect(text).toContain('cannot use Actions')
    expect(text).toContain('Users')
  })
})
