/**
 * The web app manifest is generated from settings on every request, served without login under /ui,
 * and always lists the shipped PNG icons that installability needs.
 */
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { DEFAULT_ICONS } from '../../src/server/settings/manifest-routes'
import { DARK_SURFACE } from '../../src/shared/constants'
import { suiteServer } from '../helpers/suite-server'

const server = suiteServer()

describe('GET /ui/manifest.webmanifest', () => {
  it('describes the console from the default settings, without login', async () => {
    const res = await server.api('/ui/manifest.webmanifest')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^application\/manifest\+json/)
    expect(res.headers.get('cache-control')).toBe('no-cache')
    expect(res.body).toEqual({
      id: '/ui/',
      name: 'Momentum',
      short_name: 'Momentum',
      description: 'Back-office console',
      start_url: '/ui/',
      scope: '/ui/',
      display: 'standalone',
      background_color: '#f6f7f9',
      theme_color: '#1f6feb',
      icons: DEFAULT_ICONS,
    })
  })

  it('takes its names from Title while no separate App name is set (issue 11)', async () => {
    const patch = (id: string, value: unknown) =>
      server.api(`/api/settings/${id}`, { method: 'PATCH', json: { value }, token: server.admin })
    expect((await patch('title', 'Acme Operations')).status).toBe(200)
    const manifest = (await server.api('/ui/manifest.webmanifest')).body as Record<string, unknown>
    expect(manifest).toMatchObject({ name: 'Acme Operations', short_name: 'Acme Operati' })
  })

  it('paints the dark surface as theme colour in dark mode (issue 11)', async () => {
    const patch = (id: string, value: unknown) =>
      server.api(`/api/settings/${id}`, { method: 'PATCH', json: { value }, token: server.admin })
    expect((await patch('theme', { primary: '#112233', darkMode: true })).status).toBe(200)
    const manifest = (await server.api('/ui/manifest.webmanifest')).body as Record<string, unknown>
    expect(manifest).toMatchObject({ theme_color: DARK_SURFACE, background_color: DARK_SURFACE })
    expect((await patch('theme', { primary: '#1f6feb', darkMode: false })).status).toBe(200)
  })

  it('follows changes to the pwa, theme and logo settings', async () => {
    const patch = (id: string, value: unknown) =>
      server.api(`/api/settings/${id}`, { method: 'PATCH', json: { value }, token: server.admin })
    expect((await patch('pwa', { name: 'Acme Back Office', short_name: 'Acme' })).status).toBe(200)
    expect((await patch('theme', { primary: '#112233', background: 'not a colour;' })).status).toBe(200)
    expect((await patch('logo', '/files/acme-logo.svg')).status).toBe(200)
    const manifest = (await server.api('/ui/manifest.webmanifest')).body as Record<string, unknown>
    expect(manifest).toMatchObject({ name: 'Acme Back Office', short_name: 'Acme', theme_color: '#112233' })
    // An unusable colour is left out rather than passed to the browser.
    expect(manifest.background_color).toBe('#ffffff')
    expect(manifest.icons).toEqual([
      { src: '/files/acme-logo.svg', sizes: 'any', purpose: 'any', type: 'image/svg+xml' },
      ...DEFAULT_ICONS,
    ])
  })

  it('lists icons that are shipped as real PNGs of the declared size', () => {
    for (const icon of DEFAULT_ICONS) {
      const file = path.join('public', icon.src.replace(/^\/ui\//, ''))
      const png = fs.readFileSync(file)
      expect(png.subarray(1, 4).toString()).toBe('PNG')
      const [w, h] = icon.sizes.split('x').map(Number)
      expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([w, h])
    }
  })
})
