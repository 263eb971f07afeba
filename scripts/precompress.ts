/**
 * Brotli and gzip copies of the console's text files (dist/ui: scripts, styles, HTML, SVG, the service
 * worker), written at the end of `vite build` beside each file as `name.br` and `name.gz`. The server
 * sends them to a browser that accepts them (@fastify/static `preCompressed`, src/server/app.ts), so
 * staff on a mobile connection download ~1.1 MB of the console instead of ~3.7 MB, and pay no
 * compression on the server per request. Compressed once, at the highest levels (brotli 11, gzip 9):
 * ~2 s of a build on two cores, in zlib's thread pool.
 *
 * A Vite plugin of our own rather than vite-plugin-compression2: that one compresses the bundle's own
 * assets, and the service worker (vite-plugin-pwa) and the analytics script are built after it.
 */
import fs from 'node:fs/promises'
import path from 'node:path'
import { promisify } from 'node:util'
import zlib from 'node:zlib'
import type { Plugin } from 'vite'

const brotli = promisify(zlib.brotliCompress)
const gzip = promisify(zlib.gzip)

/** Text that compresses; images and fonts are compressed already. Source maps load only in devtools. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|webmanifest|txt)$/

/** Below this a compressed copy saves less than a packet. */
const MIN_BYTES = 1024

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true })
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name))
}

/** Writes `file.br` and `file.gz` for every compressible file of `dir` worth it; returns how many files got a copy. */
export async function precompress(dir: string): Promise<number> {
  const files = (await filesUnder(dir)).filter((f) => COMPRESSIBLE.test(f))
  let written = 0
  await Promise.all(
    files.map(async (file) => {
      const body = await fs.readFile(file)
      if (body.length < MIN_BYTES) return
      const [br, gz] = await Promise.all([
        brotli(body, {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
          },
        }),
        gzip(body, { level: zlib.constants.Z_BEST_COMPRESSION }),
      ])
      // A copy no smaller than the file would only cost a lookup.
      const copies: [string, Buffer][] = [
        ['br', br],
        ['gz', gz],
      ]
      const smaller = copies.filter(([, copy]) => copy.length < body.length)
      await Promise.all(smaller.map(([ext, copy]) => fs.writeFile(`${file}.${ext}`, copy)))
      if (smaller.length) written++
    }),
  )
  return written
}

export function precompressPlugin(): Plugin {
  let outDir = ''
  return {
    name: 'momentum-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir)
    },
    // After every other plugin's closeBundle: the service worker and the analytics script are built there.
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        await precompress(outDir)
      },
    },
  }
}
