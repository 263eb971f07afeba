/**
 * The delegated-authority module itself (auth/delegation.ts) against a real server: a principal's
 * rights are read when the act happens, so a grant taken away, a deleted user or a revoked token is
 * seen by the next act at once; save-time refusals name the permission and the field.
 */
import type { FastifyRequest } from 'fastify'
import { describe, expect, it } from 'vitest'
import {
  permissionsBeyond,
  principalOf,
  requireActAs,
  requireGrantable,
  requireHeld,
} from '../../src/server/auth/delegation'
import type { ApiError } from '../../src/server/errors'
import { parsePermissions } from '../../src/shared/permissions'
import { suiteServer } from '../helpers/suite-server'

const server = suiteServer()

const refusal = (fn: () => unknown): Promise<ApiError> =>
  Promise.resolve()
    .then(fn)
    .then(
      () => {
        throw new Error('not refused')
      },
      (error) => error as ApiError,
    )

describe('principalOf: rights read when the act happens', () => {
  it('follows a grant taken away and a deleted user at once', async () => {
    await server.userWith('dana', ['data/contacts:r'])
    expect((await principalOf(server.services, 'dana')).allows('data/contacts/c1:r')).toBe(true)
    await server.services.store.write(
      { op: 'patch', collection: 'groups', id: 'g-dana', body: { permissions: ['data/other:r'] } },
      { user: null },
    )
    expect((await principalOf(server.services, 'dana')).allows('data/contacts/c1:r')).toBe(false)
    await server.services.store.write({ op: 'delete', collection: 'users', id: 'dana' }, { user: null })
    expect((await principalOf(server.services, 'dana')).allows('data/other:r')).toBe(false)
  })

  it('honours an n block on one document path', async () => {
    await server.userWith('erin', ['data/contacts:r', 'data/contacts/secret:n'])
    const erin = await principalOf(server.services, 'erin')
    expect(erin.allows('data/contacts/open:r')).toBe(true)
    expect(erin.allows('data/contacts/secret:r')).toBe(false)
  })

  it('narrows to an API token and refuses once the token is gone', async () => {
    const session = await server.userWith('finn', ['data:*', 'tokens:*'])
    const made = await server.api('/api/tokens', {
      token: session,
      json: { name: 'read only', permissions: ['data/contacts:r'] },
    })
    expect(made.status, made.text).toBe(201)
    const id = (made.body as { _id: string })._id
    const scoped = await principalOf(server.services, 'finn', id)
    expect(scoped.allows('data/contacts/c1:r')).toBe(true)
    expect(scoped.allows('data/contacts/c1:u')).toBe(false)
    expect((await server.api(`/api/tokens/${id}`, { method: 'DELETE', token: session })).status).toBe(200)
    const gone = await principalOf(server.services, 'finn', id)
    expect(gone.refusal).toBe('token')
    expect(gone.allows('data/contacts/c1:r')).toBe(false)
  })
})

describe('save-time refusals', () => {
  const requestWith = (permissions: string[], user = 'saver') =>
    ({
      auth: { user, sessionId: 's', purpose: 'session', permissions, grants: parsePermissions(permissions) },
    }) as unknown as FastifyRequest

  it('requireHeld names the permission and the field', async () => {
    const error = await refusal(() =>
      requireHeld(requestWith(['forms:*']), 'data/payroll:c', 'target', 'send answers to data/payroll'),
    )
    expect(error.status).toBe(403)
    expect(error.details).toEqual({ permission: ['data/payroll:c'], field: 'target' })
    expect(error.message).toContain('data/payroll:c')
    expect(() => requireHeld(requestWith(['data:c']), 'data/payroll:c', 'target', 'x')).not.toThrow()
  })

  it('requireActAs needs users/{id}:u and everything the other user holds', async () => {
    await server.userWith('greta', ['data/contacts:r', 'messages:c'])
    const narrow = await refusal(() =>
      requireActAs(server.services, requestWith(['users:r', 'actions:*']), 'greta', 'runAs'),
    )
    expect(narrow.details).toMatchObject({ field: 'runAs', permission: 'users/greta:u' })
    const lesser = await refusal(() =>
      requireActAs(server.services, requestWith(['users:u', 'data/contacts:r']), 'greta', 'runAs'),
    )
    expect(lesser.details).toEqual({ field: 'runAs', permission: ['messages:c'] })
    await expect(
      requireActAs(server.services, requestWith(['users:u', 'data:r', 'messages:*']), 'greta', 'runAs'),
    ).resolves.toBeUndefined()
    // Oneself: nothing more.
    await expect(
      requireActAs(server.services, requestWith([], 'greta'), 'greta', 'runAs'),
    ).resolves.toBeUndefined()
  })

  it('requireGrantable refuses what the editor does not hold; n entries always pass', async () => {
    const error = await refusal(() =>
      requireGrantable(requestWith(['groups:*', 'data:r']), ['data:r', '*:*', 'users:n'], 'permissions'),
    )
    expect(error.details).toEqual({ field: 'permissions', permission: ['*:crud'] })
    expect(() => requireGrantable(requestWith(['data:r']), ['data/x:r', 'users:n'], 'p')).not.toThrow()
  })

  it('permissionsBeyond counts a narrower block on the holder side', () => {
    const holder = parsePermissions(['data:*', 'data/secret:n'])
    const target = parsePermissions(['data:r'])
    expect(permissionsBeyond(holder, target)).toEqual(['data/secret:r'])
  })
})
