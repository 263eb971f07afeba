/**
 * Share links (src/server/storage/share.ts, docs/operating/storage.md "Share links"): creating one needs
 * `r` on a file; anyone holding the link gets the metadata and the bytes (Range, attachment, nosniff,
 * the /api sandbox) until it expires (410); a forged signature, a tampered path, a revoked right, a
 * deleted user and a deleted or replaced file all answer 404.
 */
import { SignJWT } from 'jose'
import { beforeAll, describe, expect, it } from 'vitest'
import { redactUrl } from '../../src/server/app'
import { API_CSP } from '../../src/server/http/security-headers'
import { SHARE_DEFAULT_SECONDS, SHARE_MAX_SECONDS } from '../../src/shared/constants'
import { requiresOneOf, SERVER_TEXT, STORAGE_TEXT } from '../../src/shared/texts'
import { suiteServer } from '../helpers/suite-server'

let reader: string

function form(files: Record<string, string>): FormData {
  const data = new FormData()
  for (const [name, text] of Object.entries(files)) data.append('file', new Blob([text]), name)
  return data
}

const upload = (folder: string, files: Record<string, string>) =>
  server.api(`/api/storage/${folder}`, { method: 'POST', body: form(files), token: server.admin })

async function share(path: string, token = server.admin, expiresIn?: number) {
  return server.api('/api/share', { json: { root: 'storage', path, expiresIn }, token })
}

/** The token of a share link made by `token` (default admin) for `path`. */
async function linkTo(path: string, token = server.admin, expiresIn?: number): Promise<string> {
  const res = await share(path, token, expiresIn)
  expect(res.status, res.text).toBe(201)
  const { url } = res.body as { url: string }
  return new URL(url, 'http://x').searchParams.get('t')!
}

const meta = (t: string) => server.api(`/api/share/${t}`)
const file = (t: string, headers: Record<string, string> = {}) =>
  server.api(`/api/share/${t}/file`, { headers })

const server = suiteServer()
beforeAll(async () => {
  for (const dir of ['docs', 'docs/private']) {
    await server.api(`/api/storage/${dir}`, {
      method: 'POST',
      json: { directory: true },
      token: server.admin,
    })
  }
  await upload('docs', { 'report.txt': 'the quarterly report', 'page.html': '<script>alert(1)</script>' })
  await upload('docs/private', { 's.txt': 'secret' })
  reader = await server.userWith('reader', ['storage/docs:r', 'storage/docs/private:n'])
})

describe('creating a link', () => {
  it('answers 201 with the download page URL and the expiry (default a week)', async () => {
    const before = Date.now()
    const res = await share('docs/report.txt')
    expect(res.status).toBe(201)
    const { url, expires } = res.body as { url: string; expires: string }
    expect(url).toMatch(/^\/ui\/download\?t=[\w-]+\.[\w-]+\.[\w-]+$/)
    const ms = Date.parse(expires) - before
    expect(ms).toBeGreaterThan((SHARE_DEFAULT_SECONDS - 5) * 1000)
    expect(ms).toBeLessThanOrEqual((SHARE_DEFAULT_SECONDS + 1) * 1000)
    const short = await share('docs/report.txt', server.admin, 3600)
    expect(Date.parse((short.body as { expires: string }).expires) - Date.now()).toBeLessThanOrEqual(3600_000)
  })

  it('needs a login, r on the path, an existing file (not a folder) and a sane expiry', async () => {
    const anonymous = await server.api('/api/share', { json: { root: 'storage', path: 'docs/report.txt' } })
    expect(anonymous.status).toBe(401)
    expect((anonymous.body as { message: string }).message).toBe(SERVER_TEXT.notAuthenticated)
    const blocked = await share('docs/private/s.txt', reader)
    expect(blocked.status).toBe(403)
    expect((blocked.body as { message: string }).message).toBe(
      requiresOneOf(['storage/docs/private/s.txt:r']),
    )
    expect((await share('docs/report.txt', reader)).status).toBe(201)
    const folder = await share('docs')
    expect(folder.status).toBe(400)
    expect((folder.body as { message: string }).message).toBe(STORAGE_TEXT.shareNotFile)
    expect((await share('')).status).toBe(400)
    expect((await share('docs/nothing.txt')).status).toBe(404)
    expect((await share('docs/../x.txt')).status).toBe(400)
    for (const bad of [0, -5, 1.5, SHARE_MAX_SECONDS + 1]) {
      const res = await share('docs/report.txt', server.admin, bad)
      expect(res.status).toBe(400)
      expect((res.body as { message: string }).message).toBe(STORAGE_TEXT.shareExpiresIn)
    }
    const badRoot = await server.api('/api/share', {
      json: { root: 'etc', path: 'passwd' },
      token: server.admin,
    })
    expect(badRoot.status).toBe(400)
  })
})

describe('using a link, logged out', () => {
  it('gives the metadata and the bytes as an attachment, with nosniff and the /api sandbox', async () => {
    const t = await linkTo('docs/report.txt')
    const m = await meta(t)
    expect(m.status).toBe(200)
    expect(m.body).toMatchObject({ name: 'report.txt', size: 20, type: 'text/plain; charset=utf-8' })
    expect(Date.parse((m.body as { modified: string }).modified)).not.toBeNaN()
    const f = await file(t)
    expect(f.status).toBe(200)
    expect(f.text).toBe('the quarterly report')
    expect(f.headers.get('content-disposition')).toBe("attachment; filename*=UTF-8''report.txt")
    expect(f.headers.get('x-content-type-options')).toBe('nosniff')
    expect(f.headers.get('content-security-policy')).toBe(API_CSP)
    expect(f.headers.get('content-length')).toBe('20')
  })

  it('serves an HTML file as an attachment too', async () => {
    const f = await file(await linkTo('docs/page.html'))
    expect(f.headers.get('content-disposition')).toMatch(/^attachment;/)
    expect(f.headers.get('content-security-policy')).toBe(API_CSP)
  })

  it('answers Range with 206, honours If-Range and refuses a range past the end', async () => {
    const t = await linkTo('docs/report.txt')
    const part = await file(t, { range: 'bytes=4-12' })
    expect(part.status).toBe(206)
    expect(part.text).toBe('quarterly')
    expect(part.headers.get('content-range')).toBe('bytes 4-12/20')
    const etag = (await file(t)).headers.get('etag')!
    expect((await file(t, { range: 'bytes=4-12', 'if-range': etag })).status).toBe(206)
    expect((await file(t, { range: 'bytes=4-12', 'if-range': '"old"' })).status).toBe(200)
    expect((await file(t, { range: 'bytes=50-' })).status).toBe(416)
  })

  it('says 410 once the link has expired', async () => {
    const t = await linkTo('docs/report.txt', server.admin, 1)
    expect((await meta(t)).status).toBe(200)
    await new Promise((r) => setTimeout(r, 2100))
    for (const res of [await meta(t), await file(t)]) {
      expect(res.status).toBe(410)
      expect((res.body as { message: string }).message).toBe(STORAGE_TEXT.shareExpired)
    }
  })
})

describe('links that are not valid', () => {
  const expectInvalid = async (t: string) => {
    for (const res of [await meta(t), await file(t)]) {
      expect(res.status).toBe(404)
      expect((res.body as { message: string }).message).toBe(STORAGE_TEXT.shareInvalid)
    }
  }

  it('refuses a forged signature, another key, a session token and garbage', async () => {
    const t = await linkTo('docs/report.txt')
    const [head, body, sig] = t.split('.') as [string, string, string]
    const flipped = sig.slice(0, 10) + (sig[10] === 'A' ? 'B' : 'A') + sig.slice(11)
    await expectInvalid(`${head}.${body}.${flipped}`)
    const foreign = await new SignJWT({ root: 'storage', path: 'docs/private/s.txt', v: 'x' })
      .setProtectedHeader({ alg: 'HS256', typ: 'share' })
      .setSubject('admin')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('not the server key, but long enough for HS256'))
    await expectInvalid(foreign)
    // A login token is signed by another key and has no share claims.
    await expectInvalid(server.admin)
    await expectInvalid('not-a-token')
    // An expired forgery is still just invalid: "expired" is only said of a genuine link.
    const oldForgery = await new SignJWT({ root: 'storage', path: 'docs/report.txt', v: 'x' })
      .setProtectedHeader({ alg: 'HS256', typ: 'share' })
      .setSubject('admin')
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(new TextEncoder().encode('not the server key, but long enough for HS256'))
    await expectInvalid(oldForgery)
  })

  it('refuses a token whose path (or root, or user) was changed, keeping the signature', async () => {
    const t = await linkTo('docs/report.txt', reader)
    const [head, body, sig] = t.split('.') as [string, string, string]
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString())
    for (const change of [{ path: 'docs/private/s.txt' }, { root: 'static' }, { sub: 'admin' }]) {
      const tampered = Buffer.from(JSON.stringify({ ...claims, ...change })).toString('base64url')
      await expectInvalid(`${head}.${tampered}.${sig}`)
    }
    expect((await file(t)).text).toBe('the quarterly report')
  })

  it('stops working when the creator loses the right to read, or is deleted', async () => {
    const token = await server.userWith('sharer', ['storage/docs:r'])
    const t = await linkTo('docs/report.txt', token)
    expect((await file(t)).status).toBe(200)
    const { store } = server.services
    await store.write(
      {
        op: 'patch',
        collection: 'groups',
        id: 'g-sharer',
        body: { permissions: ['storage/docs/report.txt:n', 'storage:r'] },
      },
      { user: null },
    )
    await expectInvalid(t)
    await store.write(
      { op: 'patch', collection: 'groups', id: 'g-sharer', body: { permissions: ['storage:r'] } },
      { user: null },
    )
    expect((await file(t)).status).toBe(200)
    await store.write({ op: 'delete', collection: 'users', id: 'sharer' }, { user: null })
    await expectInvalid(t)
  })

  it('made with an API token: limited to the token, and stops working when the token is revoked', async () => {
    const create = (permissions: string[]) =>
      server.api('/api/tokens', { json: { name: 'share script', permissions }, token: server.admin })
    const made = (await create(['storage/docs/report.txt:r'])).body as { _id: string; token: string }
    expect((await share('docs/page.html', made.token)).status).toBe(403)
    const t = await linkTo('docs/report.txt', made.token)
    expect((await file(t)).status).toBe(200)
    expect(
      (await server.api(`/api/tokens/${made._id}`, { method: 'DELETE', token: server.admin })).status,
    ).toBe(200)
    await expectInvalid(t)
    // A session link of the same owner is untouched by the token's revocation.
    expect((await file(await linkTo('docs/report.txt'))).status).toBe(200)
  })

  it('stops working when the file is deleted, moved or replaced', async () => {
    const gone = async (t: string) => {
      for (const res of [await meta(t), await file(t)]) {
        expect(res.status).toBe(404)
        expect((res.body as { message: string }).message).toBe(STORAGE_TEXT.shareFileGone)
      }
    }
    await upload('docs', { 'a.txt': 'first', 'b.txt': 'bee', 'c.txt': 'sea' })
    const a = await linkTo('docs/a.txt')
    const b = await linkTo('docs/b.txt')
    const c = await linkTo('docs/c.txt')
    expect((await file(a)).text).toBe('first')
    expect(
      (await server.api('/api/storage/docs/a.txt', { method: 'DELETE', token: server.admin })).status,
    ).toBe(200)
    await gone(a)
    // Another file under the old name is not what was shared.
    await upload('docs', { 'a.txt': 'a different file' })
    await gone(a)
    await server.api('/api/storage/docs/b.txt', {
      method: 'PATCH',
      json: { move: 'docs/b2.txt' },
      token: server.admin,
    })
    await gone(b)
    await new Promise((r) => setTimeout(r, 20))
    await upload('docs', { 'c.txt': 'sea, replaced' })
    await gone(c)
  })
})

describe('logs', () => {
  it('never log a share token: the request log redacts it in the API path and the page URL', () => {
    expect(redactUrl('/api/share/eyJa.b.c/file')).toBe('/api/share/[redacted]/file')
    expect(redactUrl('/api/share/eyJa.b.c')).toBe('/api/share/[redacted]')
    expect(redactUrl('/ui/download?x=1&t=eyJa.b.c')).toBe('/ui/download?x=1&t=[redacted]')
    expect(redactUrl('/api/share')).toBe('/api/share')
  })
})
