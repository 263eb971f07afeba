/**
 * A group's editor grants only what they hold (issue 35, finding 7f; collections/routes.ts
 * groupPreparer): what the new permission list allows that the stored group did not — an added entry,
 * a widened one, a removed `n` block — must be the editor's, on create and on every patch. What the
 * group already held needs nothing, so renaming a group that holds more than its editor still works.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { DELEGATION_TEXT } from '../../src/shared/texts'
import { suiteServer } from '../helpers/suite-server'

const server = suiteServer()
let editor: string

async function setGroup(id: string, permissions: string[]) {
  await server.services.store.write(
    { op: 'put', collection: 'groups', id, body: { name: id, permissions } },
    { user: null },
  )
}

const patch = (id: string, json: unknown, token = editor) =>
  server.api(`/api/groups/${id}`, { method: 'PATCH', json, token })

beforeAll(async () => {
  editor = await server.userWith('gm', ['groups/team:u', 'groups:c', 'groups:r', 'data/notes:crud'])
})

describe('granting through a group', () => {
  it('refuses a group editor granting what they do not hold, naming the permission and the field', async () => {
    await setGroup('team', ['data/notes:r'])
    const res = await patch('team', { permissions: ['data/notes:r', '*:*'] })
    expect(res.status).toBe(403)
    expect(res.body).toMatchObject({
      error: 'forbidden',
      field: 'permissions',
      permission: ['*:crud'],
      message: DELEGATION_TEXT.grantBeyondOwn(['*:crud']),
    })
    expect((await server.services.store.get('groups', 'team'))?.permissions).toEqual(['data/notes:r'])
    // What the editor holds may be granted.
    expect((await patch('team', { permissions: ['data/notes:crud'] })).status).toBe(200)
  })

  it('checks only what the edit adds: a group holding more than its editor can still be renamed', async () => {
    await setGroup('team', ['data/notes:r', 'contacts:r'])
    expect((await patch('team', { name: 'The team' })).status).toBe(200)
    expect((await patch('team', { permissions: ['contacts:r', 'data/notes:rc'] })).status).toBe(200)
    expect((await patch('team', { permissions: ['data/notes:r'] })).status).toBe(200)
    // Taken away, contacts:r is no longer the group's: giving it back is a grant.
    const back = await patch('team', { permissions: ['data/notes:r', 'contacts:r'] })
    expect(back.status).toBe(403)
    expect(back.body).toMatchObject({ field: 'permissions', permission: ['contacts:r'] })
  })

  it('counts removing a narrowing n entry as the grant it is', async () => {
    await setGroup('team', ['data:r', 'data/payroll:n'])
    const res = await patch('team', { permissions: ['data:r'] })
    expect(res.status).toBe(403)
    expect(res.body).toMatchObject({ field: 'permissions', permission: ['data/payroll:r'] })
    // Adding a block is always allowed.
    expect((await patch('team', { permissions: ['data:r', 'data/payroll:n', 'data/hr:n'] })).status).toBe(200)
  })

  it('checks a new group the same way', async () => {
    const wide = await server.api('/api/groups', {
      json: { _id: 'mine', name: 'Mine', permissions: ['users:crud'] },
      token: editor,
    })
    expect(wide.status).toBe(403)
    expect(wide.body).toMatchObject({ field: 'permissions', permission: ['users:crud'] })
    expect(await server.services.store.get('groups', 'mine')).toBeNull()
    const ok = await server.api('/api/groups', {
      json: { _id: 'mine', name: 'Mine', permissions: ['data/notes:r', 'users/x:n'] },
      token: editor,
    })
    expect(ok.status).toBe(201)
  })

  it('lets an editor who holds everything grant anything', async () => {
    await setGroup('team', [])
    expect((await patch('team', { permissions: ['*:*'] }, server.admin)).status).toBe(200)
  })
})
