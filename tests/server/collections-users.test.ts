/**
 * /api/users against the real server: passwords go to the secret store and never into a document,
 * managed fields are ignored, group membership needs groups:u, a delete leaves nothing behind, and
 * the image routes store, serve, refuse and replace pictures.
 */
import fs from 'node:fs'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { PASSWORD_SECRET, verifyPassword } from '../../src/server/auth/passwords'
import type { Doc } from '../../src/server/store/types'
import { UPLOAD_LIMIT_BYTES } from '../../src/shared/constants'
import { COLLECTION_TEXT, requiresOneOf, SERVER_TEXT } from '../../src/shared/texts'
import { ADMIN_PASSWORD } from '../helpers/server'
import { suiteServer } from '../helpers/suite-server'

const server = suiteServer()

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
)
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64')

function upload(data: Buffer, type: string, field = 'file'): FormData {
  const form = new FormData()
  form.append(field, new Blob([new Uint8Array(data)], { type }), 'picture')
  return form
}

async function secret(user: string) {
  return server.services.store.secrets.get(PASSWORD_SECRET, user)
}

describe('passwords', () => {
  it('hashes a password given on create into the secret store, never into the document', async () => {
    const res = await server.api('/api/users', {
      json: { _id: 'dora', password: '  dora-secret  ', email: ' dora@example.com ', name: 'Dora' },
      token: server.admin,
    })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ _id: 'dora', email: 'dora@example.com', groups: [], totp: false })
    expect(JSON.stringify(res.body)).not.toContain('dora-secret')
    const stored = await server.services.store.get('users', 'dora')
    expect(stored).not.toHaveProperty('password')
    expect(JSON.stringify(await server.services.store.changes(0, 10_000))).not.toContain('dora-secret')
    expect(await verifyPassword('dora-secret', await secret('dora'))).toBe(true)
    // Trimmed like login trims it, so the user can log in with what they typed.
    expect(await server.login('dora', 'dora-secret')).toBeTruthy()
  })

  it('changes the password on patch, and a replayed patch does not undo a later change', async () => {
    const patch = (password: string, key: string) =>
      server.api('/api/users/dora', {
        method: 'PATCH',
        json: { password },
        token: server.admin,
        headers: { 'idempotency-key': key },
      })
    expect((await patch('second-pw', 'pw-1')).status).toBe(200)
    expect(await verifyPassword('second-pw', await secret('dora'))).toBe(true)
    expect((await patch('third-pw', 'pw-2')).status).toBe(200)
    const replay = await patch('second-pw', 'pw-1')
    expect(replay.headers.get('idempotent-replayed')).toBe('true')
    expect(await verifyPassword('third-pw', await secret('dora'))).toBe(true)
  })

  it('refuses an empty or non-string password and changes nothing', async () => {
    const before = await secret('dora')
    for (const password of ['', '   ', 42, null]) {
      const res = await server.api('/api/users/dora', {
        method: 'PATCH',
        json: { password },
        token: server.admin,
      })
      expect(res.status).toBe(400)
      expect(res.body).toMatchObject({ message: COLLECTION_TEXT.passwordInvalid })
    }
    expect(await secret('dora')).toBe(before)
  })

  it('does not set the password when the document write is refused', async () => {
    const before = await secret('dora')
    const res = await server.api('/api/users/dora', {
      method: 'PATCH',
      json: { password: 'never-applied' },
      token: server.admin,
      headers: { 'if-match': '1' },
    })
    expect(res.status).toBe(409)
    expect(await secret('dora')).toBe(before)
  })
})

describe('user fields', () => {
  it('ignores fields other routes own and checks e-mail and groups', async () => {
    const res = await server.api('/api/users', {
      json: { _id: 'eve', totp: true, image: 'http://evil.example/x.png', imageRev: 'x', lastLogin: 'never' },
      token: server.admin,
    })
    expect(res.status).toBe(201)
    const doc = res.body as Doc
    expect(doc.totp).toBe(false)
    expect(doc).not.toHaveProperty('image')
    expect(doc).not.toHaveProperty('imageRev')
    expect(doc).not.toHaveProperty('lastLogin')

    const badEmail = await server.api('/api/users/eve', {
      method: 'PATCH',
      json: { email: 'not-mail' },
      token: server.admin,
    })
    expect(badEmail.status).toBe(400)
    expect(badEmail.body).toMatchObject({ message: SERVER_TEXT.invalidEmail })
    const badGroups = await server.api('/api/users/eve', {
      method: 'PATCH',
      json: { groups: 'admins' },
      token: server.admin,
    })
    expect(badGroups.body).toMatchObject({ message: COLLECTION_TEXT.groupsInvalid })
  })

  it('needs groups:u to change membership, so users:u cannot make anyone an admin', async () => {
    const manager = await server.userWith('manager', ['users:*'])
    const escalate = await server.api('/api/users/manager', {
      method: 'PATCH',
      json: { groups: ['g-manager', 'admins'] },
      token: manager,
    })
    expect(escalate.status).toBe(403)
    expect(escalate.body).toMatchObject({ message: requiresOneOf(['groups:u']) })
    const create = await server.api('/api/users', {
      json: { _id: 'sneaky', groups: ['admins'] },
      token: manager,
    })
    expect(create.status).toBe(403)
    expect(await server.services.store.get('users', 'sneaky')).toBeNull()

    // Saving the same membership back, as a form does, is fine.
    const same = await server.api('/api/users/manager', {
      method: 'PATCH',
      json: { groups: ['g-manager'], name: 'Manager' },
      token: manager,
    })
    expect(same.status).toBe(200)
    const byAdmin = await server.api('/api/users/eve', {
      method: 'PATCH',
      json: { groups: ['admins'] },
      token: server.admin,
    })
    expect(byAdmin.status).toBe(200)
  })

  it('deleting a user removes their password, sessions and image', async () => {
    const token = await server.userWith('frank', ['products:r'])
    const up = await server.api('/api/users/frank/image', { body: upload(PNG, 'image/png'), token })
    expect(up.status).toBe(200)
    expect(fs.existsSync(path.join(server.dataDir, 'images', 'frank'))).toBe(true)

    const del = await server.api('/api/users/frank', { method: 'DELETE', token: server.admin })
    expect(del.status).toBe(200)
    expect(await secret('frank')).toBeNull()
    expect((await server.api('/api/products', { token })).status).toBe(401)
    expect(fs.existsSync(path.join(server.dataDir, 'images', 'frank'))).toBe(false)
    const login = await server.api('/api/auth/login', { json: { username: 'frank', password: 'frank-pw' } })
    expect(login.status).toBe(401)
  })
})

describe('user images', () => {
  let gina: string
  beforeAll(async () => {
    gina = await server.userWith('gina', null)
    await server.userWith('hank', null)
  })

  it('has none until one is uploaded', async () => {
    const res = await server.api('/api/users/hank/image', { token: server.admin })
    expect(res.status).toBe(404)
    expect(res.body).toMatchObject({ message: COLLECTION_TEXT.imageNone })
  })

  it('stores an upload, points the document at it and serves the same bytes', async () => {
    const res = await server.api('/api/users/hank/image', {
      body: upload(PNG, 'image/png'),
      token: server.admin,
    })
    expect(res.status).toBe(200)
    const doc = res.body as Doc & { image: string; imageRev: string }
    expect(doc.image).toBe('/api/users/hank/image')
    expect(doc.imageRev).toMatch(/^[0-9a-f]{16}$/)
    expect(res.headers.get('etag')).toBe(`"${doc._rev}"`)

    const img = await fetch(`${server.url}/api/users/hank/image?token=${server.admin}`)
    expect(img.status).toBe(200)
    expect(img.headers.get('content-type')).toBe('image/png')
    expect(img.headers.get('x-content-type-options')).toBe('nosniff')
    expect(Buffer.from(await img.arrayBuffer()).equals(PNG)).toBe(true)

    const cached = await server.api('/api/users/hank/image', {
      token: server.admin,
      headers: { 'if-none-match': `"${doc.imageRev}"` },
    })
    expect(cached.status).toBe(304)
  })

  it('authenticates a same-origin <img> with the login cookie, for picture GETs only', async () => {
    const login = await server.api('/api/auth/login', {
      json: { username: 'admin', password: ADMIN_PASSWORD },
    })
    const setCookie = login.headers.get('set-cookie') ?? ''
    expect(setCookie).toMatch(/^momentum_image=[^;]+; Path=\/api\/users; HttpOnly; SameSite=Strict/)
    const cookie = setCookie.split(';')[0]!
    expect((await fetch(`${server.url}/api/users/hank/image`, { headers: { cookie } })).status).toBe(200)
    expect((await fetch(`${server.url}/api/users/hank/image`)).status).toBe(401)
    // The cookie is not a session for anything else, so it opens no cross-site request forgery hole.
    expect((await fetch(`${server.url}/api/users/gina`, { headers: { cookie } })).status).toBe(401)
    const patch = await fetch(`${server.url}/api/users/gina`, {
      method: 'PATCH',
      headers: { cookie, 'content-type': 'application/json' },
      body: '{"name":"x"}',
    })
    expect(patch.status).toBe(401)
    // Logout clears it, and the revoked token behind it no longer works.
    const out = await server.api('/api/auth/logout', {
      method: 'DELETE',
      token: (login.body as { token: string }).token,
    })
    expect(out.headers.get('set-cookie')).toMatch(/^momentum_image=; .*Max-Age=0/)
    expect((await fetch(`${server.url}/api/users/hank/image`, { headers: { cookie } })).status).toBe(401)
  })

  it('replaces the picture: a new imageRev, the new bytes, the old file gone', async () => {
    const before = (await server.services.store.get('users', 'hank'))!.imageRev as string
    const res = await server.api('/api/users/hank/image', {
      body: upload(GIF, 'image/gif'),
      token: server.admin,
    })
    const rev = (res.body as { imageRev: string }).imageRev
    expect(rev).not.toBe(before)
    const img = await fetch(`${server.url}/api/users/hank/image?token=${server.admin}`)
    expect(img.headers.get('content-type')).toBe('image/gif')
    expect(Buffer.from(await img.arrayBuffer()).equals(GIF)).toBe(true)
    expect(fs.readdirSync(path.join(server.dataDir, 'images', 'hank'))).toEqual([rev])
  })

  it('refuses what is not an image and leaves user and files unchanged', async () => {
    const before = await server.services.store.get('users', 'hank')
    const html = Buffer.from('<html><script>alert(1)</script></html>')
    for (const [data, type] of [
      [html, 'text/html'],
      [html, 'image/png'],
      [Buffer.from('%PDF-1.4 fake'), 'application/pdf'],
    ] as const) {
      const res = await server.api('/api/users/hank/image', { body: upload(data, type), token: server.admin })
      expect(res.status, type).toBe(400)
      expect(res.body).toMatchObject({ message: COLLECTION_TEXT.imageNotImage })
    }
    const wrongField = await server.api('/api/users/hank/image', {
      body: upload(PNG, 'image/png', 'photo'),
      token: server.admin,
    })
    expect(wrongField.status).toBe(400)
    expect(wrongField.body).toMatchObject({ message: COLLECTION_TEXT.imageMissing })
    const json = await server.api('/api/users/hank/image', { json: { file: 'x' }, token: server.admin })
    expect(json.status).toBe(400)

    expect(await server.services.store.get('users', 'hank')).toEqual(before)
    expect(fs.readdirSync(path.join(server.dataDir, 'images', 'hank'))).toEqual([before!.imageRev])
  })

  it(`refuses a file over ${UPLOAD_LIMIT_BYTES} bytes with 413`, async () => {
    const big = Buffer.alloc(UPLOAD_LIMIT_BYTES + 1024)
    PNG.copy(big)
    const res = await server.api('/api/users/gina/image', { body: upload(big, 'image/png'), token: gina })
    expect(res.status).toBe(413)
    expect((await server.services.store.get('users', 'gina'))?.image).toBeUndefined()
  })

  it('lets a user without permissions manage their own image, and nobody else’s', async () => {
    const own = await server.api('/api/users/gina/image', { body: upload(PNG, 'image/png'), token: gina })
    expect(own.status).toBe(200)
    expect((await server.api('/api/users/gina/image', { token: gina })).status).toBe(200)

    const other = await server.api('/api/users/hank/image', { token: gina })
    expect(other.status).toBe(403)
    expect(other.body).toMatchObject({ message: requiresOneOf(['users/hank:r']) })
    const write = await server.api('/api/users/hank/image', { body: upload(PNG, 'image/png'), token: gina })
    expect(write.status).toBe(403)
    expect((await server.api('/api/users/hank/image')).status).toBe(401)
  })

  it('honours If-Match and refuses an Idempotency-Key reused for another picture', async () => {
    const stale = await server.api('/api/users/gina/image', {
      body: upload(GIF, 'image/gif'),
      token: gina,
      headers: { 'if-match': '1' },
    })
    expect(stale.status).toBe(409)
    const doc = await server.services.store.get('users', 'gina')
    expect(fs.readdirSync(path.join(server.dataDir, 'images', 'gina'))).toEqual([doc!.imageRev])

    const first = await server.api('/api/users/gina/image', {
      body: upload(GIF, 'image/gif'),
      token: gina,
      headers: { 'idempotency-key': 'img-1' },
    })
    expect(first.status).toBe(200)
    const same = await server.api('/api/users/gina/image', {
      body: upload(GIF, 'image/gif'),
      token: gina,
      headers: { 'idempotency-key': 'img-1' },
    })
    expect(same.headers.get('idempotent-replayed')).toBe('true')
    expect(same.body).toEqual(first.body)
    const other = await server.api('/api/users/gina/image', {
      body: upload(PNG, 'image/png'),
      token: gina,
      headers: { 'idempotency-key': 'img-1' },
    })
    expect(other.status).toBe(400)
    expect(other.body).toMatchObject({ message: SERVER_TEXT.idempotencyMismatch })
    const img = await fetch(`${server.url}/api/users/gina/image?token=${gina}`)
    expect(Buffer.from(await img.arrayBuffer()).equals(GIF)).toBe(true)
  })
})
