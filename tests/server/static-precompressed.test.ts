/**
 * The console's files go out compressed when the browser accepts it: the build's brotli and gzip copies
 * (scripts/precompress.ts) are sent by @fastify/static (`preCompressed`), the file itself otherwise.
 * Real server on loopback, a console directory prepared by the same precompress() the build runs.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { precompress } from '../../scripts/precompress'
import { rawGet } from '../helpers/raw-get'
import { startTestServer, type TestServer } from '../helpers/server'

const uiDir = fs.mkdtempSync(path.join(os.tmpdir(), 'momentum-ui-'))
const script = `export const rows = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => ({ id: i, name: `row ${i}` })))}\n`
const tiny = 'export const x = 1\n'
let server: TestServer

beforeAll(async () => {
  fs.mkdirSync(path.join(uiDir, 'assets'))
  fs.writeFileSync(
    path.join(uiDir, 'index.html'),
    `<!doctype html><title>console</title>${'<p>x</p>'.repeat(300)}`,
  )
  fs.writeFileSync(path.join(uiDir, 'assets', 'App-abc.js'), script)
  fs.writeFileSync(path.join(uiDir, 'assets', 'tiny-abc.js'), tiny)
  fs.writeFileSync(path.join(uiDir, 'assets', 'icon.png'), Buffer.alloc(4096, 7))
  expect(await precompress(uiDir)).toBe(2) // index.html and App-abc.js; not the tiny file, not the image
  server = await startTestServer({ uiDir })
})
afterAll(async () => {
  await server.close()
  fs.rmSync(uiDir, { recursive: true, force: true })
})

/** The console's file as sent, not decoded. */
const get = (pathname: string, acceptEncoding?: string) =>
  rawGet(server.url + pathname, acceptEncoding ? { 'accept-encoding': acceptEncoding } : {})

describe('the console’s files, compressed', () => {
  it('sends the brotli copy to a browser that accepts br, and says it varies', async () => {
    const res = await get('/ui/assets/App-abc.js', 'gzip, deflate, br, zstd')
    expect(res.status).toBe(200)
    expect(res.headers['content-encoding']).toBe('br')
    expect(res.headers.vary).toMatch(/accept-encoding/i)
    expect(res.headers['content-type']).toMatch(/javascript/)
    expect(res.body.length).toBeLessThan(script.length / 3)
    expect(zlib.brotliDecompressSync(res.body).toString()).toBe(script)
  })

  it('sends the gzip copy when only gzip is accepted', async () => {
    const res = await get('/ui/assets/App-abc.js', 'gzip')
    expect(res.headers['content-encoding']).toBe('gzip')
    expect(zlib.gunzipSync(res.body).toString()).toBe(script)
  })

  it('sends the file itself to a client that accepts no encoding', async () => {
    const res = await get('/ui/assets/App-abc.js')
    expect(res.headers['content-encoding']).toBeUndefined()
    expect(res.body.toString()).toBe(script)
  })

  it('sends a file without copies (too small, or an image) as it is', async () => {
    const small = await get('/ui/assets/tiny-abc.js', 'br, gzip')
    expect(small.headers['content-encoding']).toBeUndefined()
    expect(small.body.toString()).toBe(tiny)
    const image = await get('/ui/assets/icon.png', 'br, gzip')
    expect(image.headers['content-encoding']).toBeUndefined()
    expect(image.body.length).toBe(4096)
  })

  it('compresses the console’s page too', async () => {
    const res = await get('/ui/', 'br')
    expect(res.status).toBe(200)
    expect(res.headers['content-encoding']).toBe('br')
    expect(zlib.brotliDecompressSync(res.body).toString()).toContain('<title>console</title>')
  })
})
