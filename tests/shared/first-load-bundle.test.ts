/**
 * Issue 20: what /ui/login and the console's shell load first. Builds the console with the repo's
 * vite.config.ts into a temp dir (with Vite's manifest):
 *   login first load = the scripts index.html loads (its module script and modulepreload set: the
 *   entry's static imports; vite.config.ts groups them into a few chunks, so the manifest may have no
 *   `index.html` key of its own) and their static imports;
 *   shell first load = that, plus what Entry.tsx's loadConsole() imports (App, feedback, Shell) and
 *   their static imports.
 * Each chunk's source map names the modules in it. The editor, chart, PDF and form libraries must be
 * in neither set (they load with the screens that use them), and the login page must not carry the
 * sync engine, Dexie or the shell.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { build } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

interface Chunk {
  file: string
  src?: string
  isEntry?: boolean
  imports?: string[]
  dynamicImports?: string[]
}
type Manifest = Record<string, Chunk>

/** Libraries that belong to single screens (editors, charts, PDF, forms, JSON Schema). */
const SCREEN_LIBRARIES =
  /node_modules\/(chart\.js|react-chartjs-2|chartjs-adapter-date-fns|@codemirror|codemirror|@uiw\/react-codemirror|pdfjs-dist|@rjsf|@cfworker\/json-schema|ajv)\//
/**
 * The upload client (tus-js-client and its URL and base64 helpers): loaded with a tab's first upload,
 * not with the shell, whose every tab held its module state for uploads it may never send (issue 20,
 * the screen suite's heap).
 */
const UPLOAD_CLIENT = /node_modules\/(tus-js-client|url-parse|js-base64)\//
/**
 * What a logged-out login page does not need: the sync engine, its database, the shell. Two Dexie-free
 * corners are allowed: the database declarations with their idb-keyval opener (src/db/databases.ts,
 * key-value.ts: the local state names its database) and the client queue core (src/sync/queue/: the
 * analytics collector's pass loop, retry and lock ports).
 */
const CONSOLE_ONLY =
  /node_modules\/(dexie|dexie-react-hooks|comlink)\/|\/src\/sync\/(?!queue\/)|\/src\/db\/(?!databases\.ts$|key-value\.ts$)|\/src\/app\/(shell\/Shell|shell\/Sidebar|App\.tsx|data\/sync)/
/**
 * The screens' texts (src/shared/texts/<area>.ts): the login page needs the spec's, the shell's and
 * the auth texts only. A module-level side effect in a text file or in what it imports (plural.ts's
 * `new Intl.PluralRules`, marked pure) would drag every area in through the barrel.
 */
const SCREEN_TEXTS =
  /\/src\/shared\/texts\/(data|sync|forms|schema|storage|payments|templates|actions|analytics|reports|video|messaging|ai)\.ts$/

let outDir = ''
let manifest: Manifest = {}
/** The manifest keys of the chunks index.html loads itself. */
let firstLoad: string[] = []

beforeAll(async () => {
  outDir = mkdtempSync(join(tmpdir(), 'first-load-'))
  await build({
    configFile: 'vite.config.ts',
    logLevel: 'silent',
    build: { outDir, emptyOutDir: true, manifest: true, sourcemap: true },
  })
  manifest = JSON.parse(readFileSync(join(outDir, '.vite/manifest.json'), 'utf8'))
  const html = readFileSync(join(outDir, 'index.html'), 'utf8')
  const files = [...html.matchAll(/(?:src|href)="\/ui\/(assets\/[^"]+\.js)"/g)].map((m) => m[1])
  firstLoad = files.map((file) => {
    const key = Object.keys(manifest).find((k) => manifest[k]!.file === file)
    if (!key) throw new Error(`${file} of index.html is not in the manifest`)
    return key
  })
}, 240_000)

afterAll(() => {
  if (outDir) rmSync(outDir, { recursive: true, force: true })
})

/** The keys reachable from `roots` through static imports. */
function closure(roots: string[]): Set<string> {
  const seen = new Set<string>()
  const walk = (key: string) => {
    if (seen.has(key)) return
    seen.add(key)
    for (const i of manifest[key]?.imports ?? []) walk(i)
  }
  for (const r of roots) walk(r)
  return seen
}

/** The modules (source paths) bundled into the given chunks, from their source maps. */
function modulesOf(keys: Set<string>): string[] {
  return [...keys].flatMap((k) => {
    const path = join(outDir, `${manifest[k]!.file}.map`)
    // Rolldown's own helpers (preload-helper, runtime) have no map: they hold no module of ours.
    if (!existsSync(path)) return []
    const map = JSON.parse(readFileSync(path, 'utf8'))
    return (map.sources as string[]).map((s) => `/${s.replace(/^(\.\.\/)+/, '')}`)
  })
}

function keyOf(src: string): string {
  const key = Object.keys(manifest).find((k) => manifest[k]!.src === src)
  if (!key) throw new Error(`${src} is not a chunk of its own in the build`)
  return key
}

describe('first-load JavaScript (issue 20)', () => {
  it('the login route loads no screen library, sync engine, Dexie or shell', () => {
    const login = modulesOf(closure(firstLoad))
    expect(login.length).toBeGreaterThan(10)
    expect(login.filter((m) => SCREEN_LIBRARIES.test(m))).toEqual([])
    expect(login.filter((m) => CONSOLE_ONLY.test(m))).toEqual([])
    expect(login.filter((m) => SCREEN_TEXTS.test(m))).toEqual([])
    // The login form itself is there (no extra round trip to show it).
    expect(login.some((m) => m.endsWith('/src/app/routes/login/LoginPage.tsx'))).toBe(true)
  })

  it('the shell loads no screen library first', () => {
    const loaded = closure(firstLoad)
    const dynamic = [...loaded].flatMap((k) => manifest[k]!.dynamicImports ?? [])
    const consoleRoots = ['src/app/App.tsx', 'src/app/feedback/shell-parts.tsx', 'src/app/shell/Shell.tsx']
    for (const src of consoleRoots) expect(dynamic).toContain(keyOf(src))
    const shell = modulesOf(closure([...firstLoad, ...consoleRoots.map(keyOf)]))
    expect(shell.some((m) => m.endsWith('/src/app/shell/Sidebar.tsx'))).toBe(true)
    expect(shell.filter((m) => SCREEN_LIBRARIES.test(m))).toEqual([])
    expect(shell.filter((m) => UPLOAD_CLIENT.test(m))).toEqual([])
  })

  it('each screen library is in the build, behind a dynamic import', () => {
    const all = modulesOf(new Set(Object.keys(manifest).filter((k) => manifest[k]!.file.endsWith('.js'))))
    for (const lib of ['chart.js', '@codemirror', '@rjsf', '@cfworker/json-schema'])
      expect(
        all.some((m) => m.includes(`/node_modules/${lib}/`)),
        lib,
      ).toBe(true)
  })
})
