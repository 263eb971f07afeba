/**
 * Security review, accounts (docs/decisions/security.md): nobody takes over an account they do not
 * fully cover — not through /api/users, /api/auth/password or /api/auth/totp — a password set by
 * anyone ends the target's sessions, a deleted user's API tokens stay dead when the id is registered
 * again, everyone may edit their own name and e-mail (and nothing else) without users:u, the TOTP
 * set-up code cannot log in, and the last administrator cannot be removed.
 */
import * as OTPAuth from 'otpauth'
import { describe, expect, it } from 'vitest'
import { TOKEN_SECRET } from '../../src/server/auth/api-tokens'
import { PASSWORD_MIN_LENGTH } from '../../src/shared/constants'
import { PASSWORD_TEXT, requiresOneOf, SECURITY_TEXT, SERVER_TEXT } from '../../src/shared/texts'
import { ADMIN_PASSWORD } from '../helpers/server'
import { suiteServer } from '../helpers/suite-server'

const patchUser = (id: string, json: unknown, token: string) =>
  server.api(`/api/users/${id}`, { method: 'PATCH', json, token })
const setPassword = (username: string, password: string, token: string) =>
  server.api('/api/auth/password', { method: 'PATCH', json: { username, password }, token })
const canLogin = async (username: string, password: string) =>
  (await server.api('/api/auth/login', { json: { username, password } })).status === 200

const server = suiteServer()

describe('taking over another account', () => {
  it('users:u without the target’s permissions cannot set the admin password through /api/users', async () => {
    const mallory = await server.userWith('mallory', ['users:ru'])
    const res = await patchUser('admin', { password: 'pwned-by-mallory' }, mallory)
    expect(res.status).toBe(403)
    expect(res.body).toMatchObject({
      message: SECURITY_TEXT.accountBeyondOwn('admin', ['users:cd', '*:crud']),
    })
    expect(await canLogin('admin', 'pwned-by-mallory')).toBe(false)
    expect(await canLogin('admin', ADMIN_PASSWORD)).toBe(true)
    // The e-mail is where a reset link goes: changing it would be a takeover too.
    expect((await patchUser('admin', { email: 'mallory@example.com' }, mallory)).status).toBe(403)
    expect((await server.services.store.get('users', 'admin'))?.email).toBe('admin@example.com')
    // Fields that give no access stay a users:u matter.
    expect((await patchUser('admin', { name: 'Admin' }, mallory)).status).toBe(200)
  })

  it('a per-user block (users/admin:n) holds on /api/auth/password and /api/auth/totp', async () => {
    const m2 = await server.userWith('mallory2', ['*:*', 'users/admin:n'])
    const pw = await setPassword('admin', 'pwned2', m2)
    expect(pw.status).toBe(403)
    expect(pw.body).toMatchObject({ message: requiresOneOf(['users/admin:u']) })
    expect((await server.api('/api/auth/totp/admin', { method: 'DELETE', token: m2 })).status).toBe(403)
    expect((await server.api('/api/auth/totp/admin', { method: 'PATCH', json: {}, token: m2 })).status).toBe(
      403,
    )
    expect(await canLogin('admin', ADMIN_PASSWORD)).toBe(true)
  })

  it('a lesser administrator cannot take over a greater account, but may manage lesser ones', async () => {
    await server.userWith('greater', ['data:crud', 'users:r'])
    await server.userWith('lesser', ['data:r'])
    const helpdesk = await server.userWith('helpdesk', ['users:ru', 'data:r'])
    const refused = await setPassword('greater', 'taken', helpdesk)
    expect(refused.status).toBe(403)
    expect(refused.body).toMatchObject({ message: SECURITY_TEXT.accountBeyondOwn('greater', ['data:cud']) })
    expect((await patchUser('greater', { password: 'taken' }, helpdesk)).status).toBe(403)
    expect((await server.api('/api/auth/totp/greater', { method: 'DELETE', token: helpdesk })).status).toBe(
      403,
    )
    expect(await canLogin('greater', 'taken')).toBe(false)

    expect((await setPassword('lesser', 'lesser-new', helpdesk)).status).toBe(200)
    expect(await canLogin('lesser', 'lesser-new')).toBe(true)
    expect((await server.api('/api/auth/totp/lesser', { method: 'DELETE', token: helpdesk })).status).toBe(
      200,
    )
  })

  it('a password set through /api/users ends the target’s sessions, and the new one logs in', async () => {
    const victim = await server.userWith('victim', ['products:r'])
    expect((await server.api('/api/auth/session', { token: victim })).status).toBe(200)
    const res = await patchUser('victim', { password: 'fresh-pass' }, server.admin)
    expect(res.status).toBe(200)
    expect(res.body).not.toHaveProperty('password')
    expect((await server.api('/api/auth/session', { token: victim })).status).toBe(401)
    expect(await canLogin('victim', 'fresh-pass')).toBe(true)
    expect(await canLogin('victim', 'victim-pw')).toBe(false)
  })
})

describe('deleting a user', () => {
  it('revokes their API tokens, which stay dead when the id is registered again', async () => {
    const tess = await server.userWith('tess', ['products:r', 'tokens:c'])
    const created = await server.api('/api/tokens', {
      json: { name: 't', permissions: ['products:r'] },
      token: tess,
    })
    expect(created.status).toBe(201)
    const { _id: id, token } = created.body as { _id: string; token: string }
    expect((await server.api('/api/products', { token })).status).toBe(200)

    expect((await server.api('/api/users/tess', { method: 'DELETE', token: server.admin })).status).toBe(200)
    expect(await server.services.store.get('tokens', id)).toBeNull()
    expect(await server.services.store.secrets.get(TOKEN_SECRET, id)).toBeNull()
    const again = await server.api('/api/auth/register', {
      json: { _id: 'tess', password: 'tess-second-life' },
      token: server.admin,
    })
    expect(again.status).toBe(201)
    await server.services.store.write(
      { op: 'patch', collection: 'users', id: 'tess', body: { groups: ['g-tess'] } },
      { user: null },
    )
    expect((await server.api('/api/products', { token })).status).toBe(401)
  })

  it('refuses to delete one’s own account and the last member of admins', async () => {
    const self = await server.api('/api/users/admin', { method: 'DELETE', token: server.admin })
    expect(self.status).toBe(400)
    expect(self.body).toMatchObject({ message: SECURITY_TEXT.deleteSelf })
    const deputy = await server.userWith('deputy', ['*:*'])
    const last = await server.api('/api/users/admin', { method: 'DELETE', token: deputy })
    expect(last.status).toBe(400)
    expect(last.body).toMatchObject({ message: SECURITY_TEXT.lastAdmin('admins') })
    const drop = await patchUser('admin', { groups: [] }, deputy)
    expect(drop.status).toBe(400)
    expect((await server.services.store.get('users', 'admin'))?.groups).toEqual(['admins'])
    // With a second administrator, the first may go.
    await server.services.store.write(
      { op: 'patch', collection: 'users', id: 'deputy', body: { groups: ['admins'] } },
      { user: null },
    )
    expect((await patchUser('deputy', { groups: ['g-deputy'] }, server.admin)).status).toBe(200)
    expect((await server.api('/api/users/deputy', { method: 'DELETE', token: server.admin })).status).toBe(
      200,
    )
  })
})

describe('group membership in every form (issue 10 #4)', () => {
  it('null, [] and a new list all need groups:u, and none strips the last administrator', async () => {
    const ursula = await server.userWith('ursula', ['users:u', 'users:r'])
    await server.userWith('bert', ['products:r'])
    for (const groups of [null, [], ['g-ursula']]) {
      for (const target of ['admin', 'bert']) {
        const res = await patchUser(target, { groups }, ursula)
        expect(res.status).toBe(403)
        expect(res.body).toMatchObject({ message: requiresOneOf(['groups:u']) })
      }
    }
    expect((await server.services.store.get('users', 'admin'))?.groups).toEqual(['admins'])
    expect((await server.services.store.get('users', 'bert'))?.groups).toEqual(['g-bert'])
    // Re-sending the same list, or leaving groups out, changes nothing and needs nothing more.
    expect((await patchUser('bert', { name: 'Bert', groups: ['g-bert'] }, ursula)).status).toBe(200)
    expect((await patchUser('bert', { name: 'Bertie' }, ursula)).status).toBe(200)

    // Even with groups:u the last member of admins keeps the group, whatever form the change takes.
    const groupsAdmin = await server.userWith('gina', ['users:u', 'groups:u'])
    for (const token of [groupsAdmin, server.admin]) {
      for (const groups of [null, [], ['g-gina']]) {
        const res = await patchUser('admin', { groups }, token)
        expect(res.status).toBe(400)
        expect(res.body).toMatchObject({ message: SECURITY_TEXT.lastAdmin('admins') })
      }
    }
    expect((await server.services.store.get('users', 'admin'))?.groups).toEqual(['admins'])
    // null with the right permission is "no groups".
    expect((await patchUser('bert', { groups: null }, groupsAdmin)).status).toBe(200)
    expect((await server.services.permissionsOf('bert')).length).toBe(0)
  })
})

describe('password policy on every path that sets a password (issue 10 #11)', () => {
  const short = PASSWORD_TEXT.tooShort(PASSWORD_MIN_LENGTH)
  const weak: Array<[string, string]> = [
    ['123', short],
    ['a', short],
    ['password', PASSWORD_TEXT.tooCommon],
  ]
  const refused = (res: { status: number; body: unknown }, message: string) => {
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ error: 'bad_request', message })
  }

  it('a new user: POST /api/users and /api/auth/register', async () => {
    for (const [password, message] of weak) {
      refused(
        await server.api('/api/users', { json: { _id: 'pat', password }, token: server.admin }),
        message,
      )
      refused(
        await server.api('/api/auth/register', { json: { _id: 'pat', password }, token: server.admin }),
        message,
      )
    }
    refused(
      await server.api('/api/auth/register', {
        json: { _id: 'patricia', password: 'patricia1' },
        token: server.admin,
      }),
      PASSWORD_TEXT.tooPersonal,
    )
    expect(await server.services.store.get('users', 'pat')).toBeNull()
    const ok = await server.api('/api/users', {
      json: { _id: 'pat', password: 'violet-harbour-42' },
      token: server.admin,
    })
    expect(ok.status).toBe(201)
    expect(await canLogin('pat', 'violet-harbour-42')).toBe(true)
  })

  it('Set password: PATCH /api/users/{id}, /api/auth/password for someone else and for oneself', async () => {
    const quin = await server.userWith('quin', [])
    for (const [password, message] of weak) {
      refused(await patchUser('quin', { password }, server.admin), message)
      refused(await setPassword('quin', password, server.admin), message)
      refused(
        await server.api('/api/auth/password', {
          method: 'PATCH',
          json: { username: 'quin', oldPassword: 'quin-pw', password },
          token: quin,
        }),
        message,
      )
    }
    // Nothing was changed, no session ended.
    expect(await canLogin('quin', 'quin-pw')).toBe(true)
    expect((await server.api('/api/auth/session', { token: quin })).status).toBe(200)
    expect((await setPassword('quin', 'amber-lantern-906', server.admin)).status).toBe(200)
    expect(await canLogin('quin', 'amber-lantern-906')).toBe(true)
  })
})

describe('own profile', () => {
  it('name and e-mail (with the current password) need no users:u; groups, other fields and other users do', async () => {
    const olga = await server.userWith('olga', ['products:r', 'groups:u'])
    const ok = await patchUser(
      'olga',
      { name: 'Olga N.', email: 'olga.n@example.com', currentPassword: 'olga-pw' },
      olga,
    )
    expect(ok.status).toBe(200)
    expect(ok.body).toMatchObject({ name: 'Olga N.', email: 'olga.n@example.com' })
    // Re-sending the unchanged membership (a whole form) is fine; changing it is not, even with groups:u.
    expect((await patchUser('olga', { name: 'Olga', groups: ['g-olga'] }, olga)).status).toBe(200)
    const groups = await patchUser('olga', { groups: ['g-olga', 'admins'] }, olga)
    expect(groups.status).toBe(403)
    expect(groups.body).toMatchObject({ message: SECURITY_TEXT.ownProfileFields(['groups']) })
    expect((await patchUser('olga', { role: 'boss' }, olga)).status).toBe(403)
    expect((await patchUser('olga', { password: 'no-old-needed?' }, olga)).status).toBe(403)
    expect((await patchUser('admin', { name: 'x' }, olga)).status).toBe(403)
    expect((await server.services.store.get('users', 'olga'))?.groups).toEqual(['g-olga'])
  })
})

describe('re-authentication on one’s own account (issue 10, low)', () => {
  it('changing one’s own e-mail needs the current password; the name and an unchanged e-mail do not', async () => {
    const ella = await server.userWith('ella', [])
    const change = (json: Record<string, unknown>) => patchUser('ella', json, ella)
    const missing = await change({ email: 'thief@example.net' })
    expect(missing.status).toBe(400)
    expect(missing.body).toMatchObject({ message: SECURITY_TEXT.reauthRequired })
    const wrong = await change({ email: 'thief@example.net', currentPassword: 'guess-1' })
    expect(wrong.status).toBe(400)
    expect(wrong.body).toMatchObject({ message: SECURITY_TEXT.reauthWrong })
    expect((await change({ email: null })).status).toBe(400)
    expect((await server.services.store.get('users', 'ella'))?.email).toBe('ella@example.com')
    expect((await change({ name: 'Ella', email: 'ella@example.com' })).status).toBe(200)
    const ok = await change({ email: 'ella.new@example.com', currentPassword: 'ella-pw' })
    expect(ok.status).toBe(200)
    expect(ok.body).not.toHaveProperty('currentPassword')
    expect((await server.services.store.get('users', 'ella'))?.email).toBe('ella.new@example.com')
    // An administrator changing someone else's e-mail follows the account rule, not this one.
    expect((await patchUser('ella', { email: 'ella@example.com' }, server.admin)).status).toBe(200)
  })

  it('removing one’s own TOTP needs the current password', async () => {
    const tomas = await server.userWith('tomas', [])
    const setup = await server.api('/api/auth/totp/tomas', { method: 'PATCH', json: {}, token: tomas })
    const t = OTPAuth.URI.parse((setup.body as { uri: string }).uri) as OTPAuth.TOTP
    const confirm = { method: 'PATCH', json: { totp: t.generate() }, token: tomas }
    expect((await server.api('/api/auth/totp/tomas', confirm)).status).toBe(200)
    const remove = (json?: unknown) =>
      server.api('/api/auth/totp/tomas', { method: 'DELETE', token: tomas, ...(json ? { json } : {}) })
    const bare = await remove()
    expect(bare.status).toBe(400)
    expect(bare.body).toMatchObject({ message: SECURITY_TEXT.reauthRequired })
    expect((await remove({ password: 'not-it-at-all' })).status).toBe(400)
    expect((await server.services.store.get('users', 'tomas'))?.totp).toBe(true)
    expect((await remove({ password: 'tomas-pw' })).status).toBe(200)
    expect((await server.services.store.get('users', 'tomas'))?.totp).toBe(false)
  })
})

describe('TOTP set-up code', () => {
  it('cannot be used again to log in', async () => {
    const tom = await server.userWith('tom', [])
    const begin = await server.api('/api/auth/totp/tom', { method: 'PATCH', json: {}, token: tom })
    const totp = OTPAuth.URI.parse((begin.body as { uri: string }).uri) as OTPAuth.TOTP
    const code = totp.generate()
    expect(
      (await server.api('/api/auth/totp/tom', { method: 'PATCH', json: { totp: code }, token: tom })).status,
    ).toBe(200)
    const replay = await server.api('/api/auth/login', {
      json: { username: 'tom', password: 'tom-pw', totp: code },
    })
    expect(replay.status).toBe(401)
    expect(replay.body).toMatchObject({ message: SERVER_TEXT.totpInvalid })
    const next = totp.generate({ timestamp: Date.now() + 30_000 })
    expect(
      (await server.api('/api/auth/login', { json: { username: 'tom', password: 'tom-pw', totp: next } }))
        .status,
    ).toBe(200)
  })
})
