/**
 * What the browser meets (issue 10 #5, #10, #12 and the low findings): which origins the hosted login
 * may hand a token to, the security headers of the console, the API and the Web Server root, settings
 * that reach every console as addresses, the sample Viewers group, the log write budget and the
 * default CORS origins. Real server on loopback, real SQLite in a temp dir.
 */
import fs from 'node:fs'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { configFromEnv } from '../../src/server/config'
import { consoleCsp } from '../../src/server/http/security-headers'
import { LOG_WRITE_BUDGET_PER_MINUTE } from '../../src/shared/constants'
import { BROWSER_SECURITY_TEXT } from '../../src/shared/texts'
import { startTestServer } from '../helpers/server'
import { suiteServer } from '../helpers/suite-server'

const server = suiteServer({
  seed: 'sample',
  trustedHosts: ['https://partner.example.net', 'shop.example.org', 'http://127.0.0.1:5999'],
  publicUrl: 'https://public.example.com/console',
})
beforeAll(async () => {
  // A built console of one page, and a Web Server root with a page and a file where /ui files live.
  const { uiDir, staticDir } = server.services.config
  fs.mkdirSync(uiDir, { recursive: true })
  fs.writeFileSync(path.join(uiDir, 'index.html'), '<!doctype html><title>console</title>')
  fs.mkdirSync(path.join(staticDir, 'ui'), { recursive: true })
  fs.writeFileSync(path.join(staticDir, 'page.html'), '<!doctype html><title>site</title><h1>site</h1>')
  fs.writeFileSync(path.join(staticDir, 'ui', 'evil.html'), '<!doctype html><script>steal()</script>')
})

const setSetting = (id: string, value: unknown) =>
  server.services.store.write({ op: 'put', collection: 'settings', id, body: { value } }, { user: null })

describe('GET /api/auth/known-host (hosted login origins)', () => {
  const known = async (host: string) => {
    const res = await server.api(`/api/auth/known-host?host=${encodeURIComponent(host)}`)
    expect(res.status).toBe(200)
    return (res.body as { known: boolean }).known
  }

  it('compares whole origins: scheme, host and port', async () => {
    const own = new URL(server.url)
    expect(await known(own.origin)).toBe(true)
    expect(await known(`https://${own.host}`)).toBe(false)
    expect(await known(`http://${own.hostname}:${Number(own.port) + 1}`)).toBe(false)
    // A bare host is no origin: the page always sends one, and guessing the scheme would mislead.
    expect(await known(own.host)).toBe(false)
  })

  it('knows the MOMENTUM_TRUSTED_HOSTS list (a bare host there means https) and nothing else', async () => {
    expect(await known('https://partner.example.net')).toBe(true)
    expect(await known('https://PARTNER.example.net:443/path')).toBe(true)
    expect(await known('http://partner.example.net')).toBe(false)
    expect(await known('https://shop.example.org')).toBe(true)
    expect(await known('http://shop.example.org')).toBe(false)
    expect(await known('http://127.0.0.1:5999')).toBe(true)
    expect(await known('http://127.0.0.1:5998')).toBe(false)
    expect(await known('https://partner.example.net.evil.org')).toBe(false)
    expect(await known('null')).toBe(false)
    expect(await known('javascript:alert(1)')).toBe(false)
  })

  it('knows the public_url origin (setting or MOMENTUM_PUBLIC_URL) and the known_hosts setting', async () => {
    expect(await known('https://public.example.com')).toBe(true)
    expect(await known('https://console.example.com')).toBe(false)
    await setSetting('public_url', 'https://Console.Example.com/admin/')
    await setSetting('known_hosts', ['https://app.example.io'])
    expect(await known('https://console.example.com')).toBe(true)
    expect(await known('http://console.example.com')).toBe(false)
    expect(await known('https://app.example.io')).toBe(true)
    await setSetting('public_url', '')
    await setSetting('known_hosts', [])
  })
})

describe('security headers', () => {
  it('the console (/ui and its history fallback): a CSP it runs under, not framable elsewhere', async () => {
    for (const url of ['/ui/', '/ui/users/admin?tab=x']) {
      const res = await server.api(url)
      expect(res.status, url).toBe(200)
      expect(res.text).toContain('<title>console</title>')
      const csp = res.headers.get('content-security-policy') ?? ''
      // Only the operator's trusted hosts (which already receive tokens) may embed it besides itself.
      expect(csp).toContain(
        "frame-ancestors 'self' https://partner.example.net https://shop.example.org http://127.0.0.1:5999",
      )
      expect(csp).toContain("script-src 'self'")
      expect(csp).toContain("default-src 'self'")
      expect(csp).toContain("object-src 'none'")
      expect(csp).not.toContain('unsafe-eval')
      expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/)
      expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN')
      expect(res.headers.get('x-content-type-options')).toBe('nosniff')
      expect(res.headers.get('referrer-policy')).toBe('no-referrer')
    }
  })

  it('the console of a server with no trusted hosts may be framed by itself only', () => {
    expect(consoleCsp([])).toMatch(/frame-ancestors 'self'(;|$)/)
    expect(consoleCsp(['javascript:x', ''])).toMatch(/frame-ancestors 'self'(;|$)/)
  })

  it('the API: nosniff and a sandboxed, frame-less policy even on errors', async () => {
    for (const url of ['/api/settings', '/api/nothing-here', '/api/users']) {
      const res = await server.api(url)
      expect(res.headers.get('x-content-type-options'), url).toBe('nosniff')
      expect(res.headers.get('content-security-policy'), url).toMatch(/default-src 'none'.*sandbox/)
    }
  })

  it('the Web Server root: every file sandboxed to an opaque origin, never under /ui', async () => {
    const res = await server.api('/page.html')
    expect(res.status).toBe(200)
    expect(res.text).toContain('<h1>site</h1>')
    const csp = res.headers.get('content-security-policy') ?? ''
    expect(csp).toMatch(/^sandbox /)
    expect(csp).toContain('allow-scripts')
    expect(csp).not.toContain('allow-same-origin')
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('x-frame-options')).toBeNull()
    // A file the Web Server root holds under ui/ is never served from the console's path.
    for (const url of ['/ui/evil.html', '/ui/%2e%2e/ui/evil.html', '/x/..%2fui/evil.html']) {
      const evil = await server.api(url)
      expect(evil.text, url).not.toContain('steal()')
    }
    const missing = await server.api('/missing.html')
    expect(missing.status).toBe(404)
    expect(missing.headers.get('content-security-policy')).toMatch(/^sandbox /)
  })
})

describe('settings that reach every console as addresses', () => {
  const patch = (id: string, value: unknown) =>
    server.api(`/api/settings/${id}`, { method: 'PATCH', json: { value }, token: server.admin })

  it('public_url takes an http(s) address or nothing, with a 400 that says so', async () => {
    await setSetting('public_url', '')
    for (const value of [
      'javascript:alert(1)',
      'data:text/html,<script>x</script>',
      'ftp://x.example',
      'x.example',
      7,
    ]) {
      const res = await patch('public_url', value)
      expect(res.status, String(value)).toBe(400)
      expect(res.body).toMatchObject({ message: BROWSER_SECURITY_TEXT.settingUrlInvalid('public_url') })
    }
    expect((await patch('public_url', 'https://console.example.com')).status).toBe(200)
    expect((await patch('public_url', '')).status).toBe(200)
  })

  it('logo takes an http(s) address, a path on this server or a data:image', async () => {
    await setSetting('logo', '')
    const bad = [
      'javascript:alert(1)',
      ' JavaScript:alert(1)',
      'data:text/html,<b>x</b>',
      '//evil.example/x.png',
      '/\\evil.example',
      'vbscript:x',
    ]
    for (const value of bad) {
      const res = await patch('logo', value)
      expect(res.status, value).toBe(400)
      expect(res.body).toMatchObject({ message: BROWSER_SECURITY_TEXT.settingImageInvalid('logo') })
    }
    const created = await server.api('/api/settings', {
      json: { _id: 'logo', value: 'javascript:alert(1)' },
      token: server.admin,
    })
    expect([400, 409]).toContain(created.status)
    for (const value of [
      'https://cdn.example.com/logo.svg',
      '/files/logo.png',
      'data:image/png;base64,iVBORw0KGgo=',
      '',
    ]) {
      expect((await patch('logo', value)).status, value).toBe(200)
    }
  })
})

describe('a logo stored before the rule', () => {
  it('reaches neither the manifest nor, through it, the home screen', async () => {
    await setSetting('logo', 'javascript:alert(1)')
    const manifest = await server.api('/ui/manifest.webmanifest')
    expect(manifest.status).toBe(200)
    expect(manifest.text).not.toContain('javascript:')
    await setSetting('logo', '/files/logo.png')
    expect((await server.api('/ui/manifest.webmanifest')).text).toContain('/files/logo.png')
    await setSetting('logo', '')
  })
})

describe('the sample Viewers group', () => {
  it('reads the client log but not the server log', async () => {
    const password = server.bootstrap.samplePasswords?.bob
    expect(password).toBeTruthy()
    const bob = await server.login('bob', password)
    expect((await server.api('/api/logs/client', { token: bob })).status).toBe(200)
    expect((await server.api('/api/logs/server', { token: bob })).status).toBe(403)
  })
})

describe('log write budget', () => {
  it('refuses a session past its lines per minute with 429 and Retry-After; another session goes on', async () => {
    const flooder = await server.userWith('flooder', [])
    const line = { level: 'INFO', log: 'x' }
    const full = Array.from({ length: LOG_WRITE_BUDGET_PER_MINUTE.lines }, () => line)
    expect((await server.api('/api/logs/client', { json: full, token: flooder })).status).toBe(201)
    const refused = await server.api('/api/logs/client', { json: line, token: flooder })
    expect(refused.status).toBe(429)
    expect(refused.body).toMatchObject({
      error: 'too_many_requests',
      message: BROWSER_SECURITY_TEXT.logsTooMany,
    })
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    // Parallel requests are counted before they write: none of them slips through.
    const burst = await Promise.all(
      Array.from({ length: 5 }, () => server.api('/api/logs/client', { json: line, token: flooder })),
    )
    expect(burst.map((r) => r.status)).toEqual([429, 429, 429, 429, 429])
    const other = await server.login('flooder', 'flooder-pw')
    expect((await server.api('/api/logs/client', { json: line, token: other })).status).toBe(201)
  })

  it('counts bytes too: a session that sent a full body waits before the next large one', async () => {
    const big = await server.userWith('big-writer', [])
    const text = 'y'.repeat(60_000)
    const batch = Array.from({ length: 80 }, () => ({ level: 'INFO', log: text })) // ~4.8 MB
    expect((await server.api('/api/logs/client', { json: batch, token: big })).status).toBe(201)
    expect((await server.api('/api/logs/client', { json: batch.slice(0, 10), token: big })).status).toBe(429)
  })
})

describe('default CORS origins', () => {
  it('are the dev server origins only on a loopback address outside production', () => {
    const dev = ['http://127.0.0.1:5173', 'http://localhost:5173']
    expect(configFromEnv({}).corsOrigins).toEqual(dev)
    expect(configFromEnv({ HOST: '::1' }).corsOrigins).toEqual(dev)
    expect(configFromEnv({ NODE_ENV: 'production' }).corsOrigins).toEqual([])
    expect(configFromEnv({ HOST: '0.0.0.0' }).corsOrigins).toEqual([])
    expect(
      configFromEnv({ HOST: '0.0.0.0', MOMENTUM_CORS_ORIGINS: 'https://a.example' }).corsOrigins,
    ).toEqual(['https://a.example'])
    expect(configFromEnv({ MOMENTUM_TRUSTED_HOSTS: ' https://a.example , b.example' }).trustedHosts).toEqual([
      'https://a.example',
      'b.example',
    ])
  })

  it('a production server answers no dev-server origin', async () => {
    const prod = await startTestServer({ corsOrigins: configFromEnv({ NODE_ENV: 'production' }).corsOrigins })
    try {
      const res = await fetch(`${prod.url}/api/settings`, { headers: { origin: 'http://127.0.0.1:5173' } })
      expect(res.headers.get('access-control-allow-origin')).toBeNull()
    } finally {
      await prod.close()
    }
    const res = await fetch(`${server.url}/api/settings`, { headers: { origin: 'http://127.0.0.1:5173' } })
    expect(res.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:5173')
    // What the dev console reads across origins: revisions, list totals, replays, tus offsets.
    expect(res.headers.get('access-control-expose-headers')?.split(', ')).toEqual(
      expect.arrayContaining(['etag', 'x-total-count', 'idempotent-replayed', 'upload-offset']),
    )
    expect(res.headers.get('vary')).toBe('Origin')
  })

  // http/cors.ts: the plugin runs only for requests with an Origin (issue 20). A cache must still
  // keep the two answers apart, so both say Vary: Origin.
  it('a request without Origin gets no CORS headers, and still Vary: Origin', async () => {
    const res = await fetch(`${server.url}/api/settings`)
    expect(res.status).toBe(200)
    expect(res.headers.get('vary')).toBe('Origin')
    for (const name of [
      'access-control-allow-origin',
      'access-control-allow-credentials',
      'access-control-expose-headers',
    ])
      expect(res.headers.get(name), name).toBeNull()
    // A preflight always carries an Origin; with one from the dev server it is answered as before.
    const preflight = await fetch(`${server.url}/api/settings`, {
      method: 'OPTIONS',
      headers: { origin: 'http://127.0.0.1:5173', 'access-control-request-method': 'PATCH' },
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:5173')
    expect(preflight.headers.get('access-control-allow-methods')).toContain('PATCH')
  })
})
