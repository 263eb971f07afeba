/**
 * Storage paths cannot leave their root, and path grants hold on every verb and every URL form
 * (docs/operating/storage.md): `..` raw or encoded, encoded slashes, NUL, absolute paths and symlinks out of the
 * root get 400 and change nothing; `storage:r` cannot write; `storage/docs/private:n` hides and
 * protects a subfolder from direct calls, raw `#`/`%23` forms, listings, the sync feed and from
 * operations on the folder around it.
 */
import fs from 'node:fs'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import type { StorageEntry } from '../../src/server/storage/meta'
import type { PullResponse } from '../../src/shared/sync-protocol'
import { requiresOneOf, STORAGE_TEXT } from '../../src/shared/texts'
import { rawRequest } from '../helpers/raw-request'
import { suiteServer } from '../helpers/suite-server'

function form(files: Record<string, string>): FormData {
  const data = new FormData()
  for (const [name, text] of Object.entries(files)) data.append('file', new Blob([text]), name)
  return data
}

const server = suiteServer()
beforeAll(async () => {
  for (const dir of ['docs', 'docs/private', 'docs/open']) {
    await server.api(`/api/storage/${dir}`, {
      method: 'POST',
      json: { directory: true },
      token: server.admin,
    })
  }
  await server.api('/api/storage/docs/private', {
    method: 'POST',
    body: form({ 's.txt': 'secret' }),
    token: server.admin,
  })
  await server.api('/api/storage/docs/open', {
    method: 'POST',
    body: form({ 'o.txt': 'open' }),
    token: server.admin,
  })
})

const raw = (method: string, target: string, token = server.admin, json?: unknown) =>
  rawRequest(server.url, method, target, token, json)

describe('paths stay inside their root', () => {
  it('refuses .. raw and encoded, encoded slashes, NUL, backslashes and absolute paths', async () => {
    fs.writeFileSync(path.join(server.dataDir, 'outside.txt'), 'outside')
    for (const target of [
      '/api/storage/../outside.txt',
      '/api/storage/docs/../../outside.txt',
      '/api/storage/%2e%2e/outside.txt',
      '/api/storage/docs/%2E%2E/%2e%2e/outside.txt',
      '/api/storage/..%2Foutside.txt',
      '/api/storage/docs%2F..%2F..%2Foutside.txt',
      '/api/storage//etc/passwd',
      '/api/storage/%2Fetc%2Fpasswd',
      '/api/storage/docs/open/o.txt%00',
      '/api/storage/..%5Coutside.txt',
      '/api/storage/docs/./open/o.txt',
    ]) {
      const res = await raw('GET', target)
      expect(res.status, target).toBe(400)
      expect(res.body, target).not.toContain('outside')
      expect(res.body, target).not.toContain('root:')
    }
    const bad = await raw('GET', '/api/storage/%2e%2e/outside.txt')
    expect(bad.status).toBe(400)
    expect(JSON.parse(bad.body).message).toBe(STORAGE_TEXT.pathInvalid)
  })

  it('refuses bad paths in bodies and in uploaded names, changing nothing', async () => {
    const post = (p: string, json: unknown) =>
      server.api(`/api/storage/${p}`, { method: 'POST', json, token: server.admin })
    expect((await post('docs', { from: '../outside.txt' })).status).toBe(400)
    expect((await post('docs', { from: '/etc/passwd' })).status).toBe(400)
    expect((await post('docs', { directory: '../escape' })).status).toBe(400)
    const move = await server.api('/api/storage/docs/open/o.txt', {
      method: 'PATCH',
      json: { move: '../../moved.txt' },
      token: server.admin,
    })
    expect(move.status).toBe(400)
    const data = new FormData()
    data.append('file', new Blob(['x']), '../evil.txt')
    const up = await server.api('/api/storage/docs', { method: 'POST', body: data, token: server.admin })
    expect([400, 201]).toContain(up.status)
    // Browsers' form parsers keep only the base name; either way nothing lands outside the folder.
    expect(fs.existsSync(path.join(server.dataDir, 'evil.txt'))).toBe(false)
    expect(fs.existsSync(path.join(server.dataDir, 'moved.txt'))).toBe(false)
    expect(fs.existsSync(path.join(server.dataDir, 'escape'))).toBe(false)
  })

  it('refuses a symlink that leads out of the root', async () => {
    fs.symlinkSync(server.dataDir, path.join(server.dataDir, 'storage', 'docs', 'link'))
    const res = await server.api('/api/storage/docs/link/jwt.secret', { token: server.admin })
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ message: STORAGE_TEXT.outsideRoot })
    const listed = (await server.api('/api/storage/docs', { token: server.admin })).body as StorageEntry[]
    expect(listed.map((e) => e.name)).not.toContain('link')
    fs.unlinkSync(path.join(server.dataDir, 'storage', 'docs', 'link'))
  })

  it('follows no symlink inside the root either: not read through, not listed, not copied', async () => {
    // An operator's link from an open folder to a file the user is blocked from (storage/docs/private:n).
    const user = await server.userWith('linked', ['storage:*', 'storage/docs/private:n'])
    const open = path.join(server.dataDir, 'storage', 'docs', 'open')
    fs.symlinkSync('../private/s.txt', path.join(open, 'link.txt'))
    fs.symlinkSync('../private', path.join(open, 'dir-link'))
    try {
      for (const target of ['docs/open/link.txt', 'docs/open/dir-link/s.txt']) {
        const res = await server.api(`/api/storage/${target}`, { token: user })
        expect(res.status, target).toBe(400)
        expect(res.body, target).toMatchObject({ message: STORAGE_TEXT.symlinkRefused })
      }
      const listed = (await server.api('/api/storage/docs/open', { token: user })).body as StorageEntry[]
      expect(listed.map((e) => e.name)).toEqual(['o.txt'])
      // A copy of the folder lands without the links (copied as written, the relative link would
      // point from the copy's place to whatever is there, judged by the copy's path).
      const copy = await server.api('/api/storage/docs', { json: { from: 'docs/open' }, token: user })
      expect(copy.status).toBe(201)
      const copied = path.join(server.dataDir, 'storage', 'docs', 'open (COPY)')
      expect(fs.readdirSync(copied)).toEqual(['o.txt'])
      // Writing through a link is refused too: nothing lands in the blocked folder.
      const up = await server.api('/api/storage/docs/open/dir-link', {
        method: 'POST',
        body: form({ 'planted.txt': 'x' }),
        token: user,
      })
      expect(up.status).toBe(400)
      expect(fs.existsSync(path.join(server.dataDir, 'storage', 'docs', 'private', 'planted.txt'))).toBe(
        false,
      )
      fs.rmSync(copied, { recursive: true })
    } finally {
      fs.unlinkSync(path.join(open, 'link.txt'))
      fs.unlinkSync(path.join(open, 'dir-link'))
    }
  })
})

describe('permissions by path', () => {
  it('lets storage:r read but not upload, create, move or delete', async () => {
    const reader = await server.userWith('reader', ['storage:r'])
    expect((await server.api('/api/storage/docs/open/o.txt', { token: reader })).text).toBe('open')
    const up = await server.api('/api/storage/docs', {
      method: 'POST',
      body: form({ 'r.txt': 'r' }),
      token: reader,
    })
    expect(up.status).toBe(403)
    expect(up.body).toMatchObject({ message: requiresOneOf(['storage/docs:c']) })
    const calls: Array<[string, string, unknown]> = [
      ['POST', 'docs', { directory: 'new' }],
      ['PATCH', 'docs/open/o.txt', { move: 'docs/x.txt' }],
      ['DELETE', 'docs/open/o.txt', undefined],
    ]
    for (const [method, p, json] of calls) {
      expect((await server.api(`/api/storage/${p}`, { method, json, token: reader })).status).toBe(403)
    }
    expect(fs.existsSync(path.join(server.dataDir, 'storage', 'docs', 'r.txt'))).toBe(false)
  })

  it('storage/docs/private:n blocks the subfolder by every URL form, listing and feed', async () => {
    const user = await server.userWith('limited', ['storage:*', 'storage/docs/private:n'])
    expect((await server.api('/api/storage/docs/open/o.txt', { token: user })).status).toBe(200)
    for (const target of [
      '/api/storage/docs/private/s.txt',
      '/api/storage/docs/private/s.txt#x',
      '/api/storage/docs/private#/s.txt',
      '/api/storage/docs/private/',
      '/api/storage/docs/private%2Fs.txt',
      '/api/storage/docs/Private/../private/s.txt',
    ]) {
      const res = await raw('GET', target, user)
      expect([400, 403], target).toContain(res.status)
      expect(res.body, target).not.toContain('secret')
    }
    // `%23` is part of the name, so it names another (missing) file, never the blocked one.
    const hash = await raw('GET', '/api/storage/docs/private%23/s.txt', user)
    expect(hash.status).toBe(404)
    const listing = (await server.api('/api/storage/docs?all=true', { token: user })).body as StorageEntry[]
    expect(listing.map((e) => e.path)).toContain('docs/open/o.txt')
    expect(listing.some((e) => e.path.startsWith('docs/private'))).toBe(false)
    const pull = (await server.api('/api/sync?cursor=0&limit=2000', { token: user })).body as PullResponse
    const seen = pull.changes.filter((c) => c.collection === 'storage').map((c) => c.id)
    expect(seen).toContain('docs/open/o.txt')
    expect(seen.some((id) => id.startsWith('docs/private'))).toBe(false)
  })

  it('refuses a delete, move or copy of a folder holding a blocked subfolder, all or nothing', async () => {
    const user = await server.userWith('limited2', ['storage:*', 'storage/docs/private:n'])
    const del = await server.api('/api/storage/docs', { method: 'DELETE', token: user })
    expect(del.status).toBe(403)
    const move = await server.api('/api/storage/docs', {
      method: 'PATCH',
      json: { move: 'elsewhere' },
      token: user,
    })
    expect(move.status).toBe(403)
    const copy = await server.api('/api/storage', { method: 'POST', json: { from: 'docs' }, token: user })
    expect(copy.status).toBe(403)
    const into = await server.api('/api/storage/docs/private', {
      method: 'POST',
      json: { from: 'docs/open/o.txt' },
      token: user,
    })
    expect(into.status).toBe(403)
    // A folder moved or copied to where one of its entries would land in a blocked place: refused.
    await server.api('/api/storage/docs/open', {
      method: 'POST',
      json: { directory: 'private' },
      token: server.admin,
    })
    const intoBlocked = await server.api('/api/storage/docs/open', {
      method: 'PATCH',
      json: { move: 'docs/moved' },
      token: await server.userWith('limited3', ['storage:*', 'storage/docs/moved/private:n']),
    })
    expect(intoBlocked.status).toBe(403)
    expect((await server.api('/api/storage/docs/moved', { token: server.admin })).status).toBe(404)
    expect((await server.api('/api/storage/docs/private/s.txt', { token: server.admin })).text).toBe('secret')
    expect((await server.api('/api/storage/docs/open/o.txt', { token: server.admin })).text).toBe('open')
    expect((await server.api('/api/storage/elsewhere', { token: server.admin })).status).toBe(404)
  })

  it('needs the static key for the Web Server root', async () => {
    const user = await server.userWith('storageonly', ['storage:*'])
    expect((await server.api('/api/static', { token: user })).status).toBe(403)
    expect((await server.api('/api/storage', { token: user })).status).toBe(200)
    expect((await server.api('/api/storage')).status).toBe(401)
  })
})
