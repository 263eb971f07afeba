/**
 * Issue 20, offline cold start: what a logged-in start on the Database editor fetches. Offline, every
 * file is one round trip through the service worker, and the start on /data/{name} fetched ~80 of them
 * (the console in ~45 chunks, the screen in ~30, among them papaparse and the JSON Schema validator,
 * which only the import worker and the document screen use). Builds the console with the repo's
 * vite.config.ts (its chunk groups) and Vite's manifest into a temp dir, and checks the start's chunks:
 * few, without those libraries, and that the other screens do not fetch the Database editor's code.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { build } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

interface Chunk {
  file: string
  src?: string
  imports?: string[]
  css?: string[]
}

let outDir = ''
let manifest: Record<string, Chunk> = {}

beforeAll(async () => {
  outDir = mkdtempSync(join(tmpdir(), 'start-chunks-'))
  await build({
    configFile: 'vite.config.ts',
    logLevel: 'silent',
    build: { outDir, emptyOutDir: true, manifest: true, sourcemap: true },
  })
  manifest = JSON.parse(readFileSync(join(outDir, '.vite/manifest.json'), 'utf8'))
}, 240_000)

afterAll(() => {
  if (outDir) rmSync(outDir, { recursive: true, force: true })
})

/** What Entry.tsx loadConsole() imports on every logged-in start. */
const CONSOLE = [
  'src/app/App.tsx',
  'src/app/feedback/shell-parts.tsx',
  'src/app/data/sync-session.ts',
  'src/app/shell/Shell.tsx',
]
const EDITOR = 'src/app/routes/data/DataEditorScreen.tsx'

/** The chunk files (JS and CSS) the given sources load, with their static imports. */
function filesOf(sources: string[]): Set<string> {
  const files = new Set<string>()
  const walk = (key: string) => {
    const chunk = manifest[key]
    if (!chunk || files.has(chunk.file)) return
    files.add(chunk.file)
    for (const css of chunk.css ?? []) files.add(css)
    for (const i of chunk.imports ?? []) walk(i)
  }
  for (const src of sources) {
    expect(manifest[src], `${src} is a chunk of its own`).toBeDefined()
    walk(src)
  }
  return files
}

/** The modules (source paths) bundled into the given files, from their source maps. */
function modulesOf(files: Set<string>): string[] {
  return [...files].flatMap((file) => {
    const path = join(outDir, `${file}.map`)
    if (!file.endsWith('.js') || !existsSync(path)) return []
    const map = JSON.parse(readFileSync(path, 'utf8'))
    return (map.sources as string[]).map((s) => `/${s.replace(/^(\.\.\/)+/, '')}`)
  })
}

describe('an offline start on the Database editor (issue 20)', () => {
  it('fetches the console and the screen in a few files', () => {
    const start = filesOf([...CONSOLE, EDITOR])
    const scripts = [...start].filter((f) => f.endsWith('.js'))
    // index.html's own six, the console and its text areas, the table, the screen: ~25, not ~80.
    expect(scripts.length).toBeLessThanOrEqual(30)
    expect(modulesOf(start).some((m) => m.endsWith('/src/app/routes/data/CollectionScreen.tsx'))).toBe(true)
  })

  it('leaves papaparse, the schema validator and the document screen out of a collection start', () => {
    const modules = modulesOf(filesOf([...CONSOLE, EDITOR]))
    expect(modules.filter((m) => /\/node_modules\/(papaparse|@cfworker\/json-schema)\//.test(m))).toEqual([])
    expect(modules.filter((m) => m.endsWith('/src/app/routes/data/DocumentScreen.tsx'))).toEqual([])
  })

  it('other screens do not fetch the Database editor', () => {
    for (const screen of ['src/app/routes/home/Home.tsx', 'src/app/routes/users/UsersScreen.tsx']) {
      const modules = modulesOf(filesOf([...CONSOLE, screen]))
      expect(
        modules.filter((m) =>
          /\/src\/app\/routes\/data\/(CollectionScreen|FilterBar|RawQuery)\.tsx$/.test(m),
        ),
        screen,
      ).toEqual([])
    }
  })
})
