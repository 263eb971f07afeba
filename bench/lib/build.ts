/**
 * Builds what the benchmarks load, into temp dirs, so a `vite build` someone runs meanwhile (it empties
 * dist/ui) cannot disturb a run, and every run measures the current source:
 *   - the console with the repo's own vite.config.ts (same chunks, service worker and precache as dist/ui);
 *   - the bench page (bench/page: index, RxDB page, online-only list) and, under /hello/, the hello-world floor,
 *     all served as the server's Web root.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import react from '@vitejs/plugin-react'
import { build } from 'vite'

export const ROOT = path.resolve(import.meta.dirname, '../..')

export interface Builds {
  uiDir: string
  pageDir: string
  cleanup(): void
}

export async function buildAll(): Promise<Builds> {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'momentum-bench-build-'))
  const uiDir = path.join(base, 'ui')
  const pageDir = path.join(base, 'page')
  await build({
    root: ROOT,
    configFile: path.join(ROOT, 'vite.config.ts'),
    logLevel: 'warn',
    build: { outDir: uiDir, emptyOutDir: true, sourcemap: false },
  })
  const pageRoot = path.join(ROOT, 'bench/page')
  await build({
    configFile: false,
    root: pageRoot,
    base: '/',
    logLevel: 'warn',
    plugins: [react()],
    worker: { format: 'es' },
    build: {
      outDir: pageDir,
      emptyOutDir: true,
      sourcemap: false,
      // Readable names in CPU profiles; the console itself is measured minified, as shipped.
      minify: false,
      chunkSizeWarningLimit: 10_000,
      rollupOptions: {
        input: {
          index: path.join(pageRoot, 'index.html'),
          online: path.join(pageRoot, 'online.html'),
          rx: path.join(pageRoot, 'rx.html'),
        },
      },
    },
  })
  await buildHello(path.join(pageDir, 'hello'))
  return { uiDir, pageDir, cleanup: () => fs.rmSync(base, { recursive: true, force: true }) }
}

/** The floor page of the bundle benchmark, minified like the console, served at /hello/hello.html. */
async function buildHello(outDir: string): Promise<void> {
  const pageRoot = path.join(ROOT, 'bench/page')
  await build({
    configFile: false,
    root: pageRoot,
    base: '/hello/',
    logLevel: 'warn',
    plugins: [react()],
    build: {
      outDir,
      emptyOutDir: true,
      sourcemap: false,
      rollupOptions: { input: { hello: path.join(pageRoot, 'hello.html') } },
    },
  })
}

/**
 * bench/page/<name>.ts as one IIFE (global `globalName`), so page.evaluate can load it into a console
 * page that the bench did not build (the reports and storage suites drive the real console).
 */
export async function buildPageScript(name: string, globalName: string): Promise<string> {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), `momentum-bench-${name}-`))
  try {
    await build({
      configFile: false,
      root: ROOT,
      logLevel: 'warn',
      define: { 'process.env.NODE_ENV': '"production"' },
      build: {
        outDir,
        emptyOutDir: true,
        sourcemap: false,
        lib: {
          entry: path.join(ROOT, `bench/page/${name}.ts`),
          formats: ['iife'],
          name: globalName,
          fileName: () => `${name}.js`,
        },
      },
    })
    return fs.readFileSync(path.join(outDir, `${name}.js`), 'utf8')
  } finally {
    fs.rmSync(outDir, { recursive: true, force: true })
  }
}
