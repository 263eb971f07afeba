/**
 * The console builds to dist/ui and is served by the platform server under /ui. In `npm run dev` Vite
 * serves it on port 5173 with an empty base, and the API client then talks to {host}:8080 (SPEC §7),
 * while /api is also proxied so relative calls keep working.
 */
import react from '@vitejs/plugin-react'
import type { CodeSplittingGroup } from 'rolldown'
import { build, defineConfig, type Plugin } from 'vite'
import { VitePWA } from 'vite-plugin-pwa'
// With its extension: Node's own loader (Vite's coming `configLoader: 'native'`) resolves no other way.
import { precompressPlugin } from './scripts/precompress.ts'

const API_TARGET = process.env.MOMENTUM_API ?? 'http://127.0.0.1:8080'

export default defineConfig(({ command }) => ({
  base: command === 'serve' ? '/' : '/ui/',
  // precompress last: its closeBundle compresses what the others wrote, the service worker included.
  plugins: [react(), pwa(), analyticsScript(), precompressPlugin()],
  build: {
    outDir: 'dist/ui',
    emptyOutDir: true,
    sourcemap: true,
    rolldownOptions: { output: { codeSplitting: { groups: chunkGroups() } } },
  },
  server: {
    port: 5173,
    strictPort: true,
    proxy: { '/api': { target: API_TARGET, ws: true, changeOrigin: false } },
  },
}))

/**
 * What /ui/login loads first, in about seven files instead of ~30 (issue 20, docs/contributing/performance.md "7. Bundle"):
 * - `boot`: src/app/boot.ts and the little it imports (local state, the first-screen read, the route
 *   table), a chunk of its own that depends on no other, so its script runs before React's chunk has
 *   evaluated and the start's IndexedDB opens begin ~30 ms sooner (docs/contributing/performance.md "3. Offline cold
 *   start");
 * - `react`: React, react-dom and the scheduler, in their own chunk so it evaluates before every module
 *   that uses React (one merged chunk once ran lucide's forwardRef before React's CommonJS wrapper);
 * - `texts-<area>`: each text file of src/shared/texts/ alone, so a page loads only the areas it
 *   uses (the barrel src/shared/texts.ts re-exports all of them; without this group the initial group
 *   would pull every area in). They import only constants and plural, so no recursive capture is needed;
 * - `first`: every other module of the entry's static closure (`$initial`) in one chunk: fewer files
 *   and one gzip dictionary instead of ~25 small chunks with their import/export glue.
 * Then what a logged-in start fetches, in a few files instead of ~80 (docs/contributing/performance.md "3. Offline
 * cold start": offline, each file is one round trip through the service worker, ~5 ms each on a
 * loaded machine):
 * - `console`: what Entry.tsx loadConsole() imports (App, the feedback parts, the sync session, the
 *   Shell) with everything they import that `first` does not hold, plus every lucide icon the screens
 *   use (they were ~15 chunks of a few hundred bytes each; all of them gzip to a few KiB);
 * - `table`: the virtualized table and @tanstack/virtual, for every list screen;
 * - `data` / `lists` (screenGroups): the Database screens' own modules, and what of their closure other
 *   screens import too, so a Users or Reports screen does not fetch the Database editor.
 * The rest (the other screens, the editors, charts, PDF, forms and schema libraries, which are dynamic
 * imports of the screens that use them) keeps Rolldown's automatic chunks.
 * tests/shared/first-load-bundle.test.ts checks what stays out of the first load.
 */
const BOOT =
  /src[\\/]app[\\/](boot\.ts|data[\\/]first-screen\.ts|local-state\.ts|env\.ts|routes[\\/]table\.ts)$|node_modules[\\/]idb-keyval[\\/]/
const CONSOLE_ROOTS =
  /src[\\/]app[\\/](App\.tsx|feedback[\\/]shell-parts\.tsx|data[\\/]sync-session\.ts|shell[\\/]Shell\.tsx)$/
const ICONS = /node_modules[\\/]lucide-react[\\/]dist[\\/]esm[\\/]icons[\\/]/
const TABLE =
  /node_modules[\\/]@tanstack[\\/](react-virtual|virtual-core)[\\/]|src[\\/]app[\\/]components[\\/]VirtualTable\.tsx$/
const DATA_ROOTS = /src[\\/]app[\\/]routes[\\/]data[\\/](DataEditorScreen|DatabaseScreen)\.tsx$/
/** CodeMirror's language packages and their grammars (HTML brings CSS and JavaScript along). */
const EDITOR_LANGUAGES =
  /node_modules[\\/](@codemirror[\\/]lang-[^\\/]+|@lezer[\\/](html|css|javascript|json))[\\/]/

type ModuleGraph = Parameters<Extract<CodeSplittingGroup['name'], (...args: never[]) => unknown>>[1]

/**
 * The Database screens' static closure (what console and first do not already hold), in two chunks:
 * `data`, the modules only those screens reach, and `lists`, the ones other screens import too (the
 * read-only note, sync marker, bulk delete, CSV export …). So a start on /data/{name} fetches two
 * chunks instead of ~30, and the Users or Reports screen fetches the list pieces, not the Database editor.
 */
function screenGroups(roots: RegExp) {
  const reached = new Map<string, boolean>()
  const own = new Map<string, boolean>()
  // Reached: a root, or statically imported by a reached module. Walked up through the importers (the
  // chunking context has no module list); a module in a cycle counts as not reached while it is being
  // looked at, and a module in the closure that this misses stays in Rolldown's automatic chunks.
  const isReached = (graph: ModuleGraph, id: string): boolean => {
    const known = reached.get(id)
    if (known !== undefined) return known
    reached.set(id, false)
    const result =
      roots.test(id) || (graph.getModuleInfo(id)?.importers ?? []).some((i) => isReached(graph, i))
    reached.set(id, result)
    return result
  }
  // Only the screens reach it: a root, or every importer (static or dynamic) is theirs. A cycle counts as
  // shared while it is being looked at, which can only send a module to `lists`.
  const isOwn = (graph: ModuleGraph, id: string): boolean => {
    const known = own.get(id)
    if (known !== undefined) return known
    own.set(id, false)
    const info = graph.getModuleInfo(id)
    const importers = [...(info?.importers ?? []), ...(info?.dynamicImporters ?? [])]
    const result = roots.test(id) || (importers.length > 0 && importers.every((i) => isOwn(graph, i)))
    own.set(id, result)
    return result
  }
  return (id: string, graph: ModuleGraph) =>
    isReached(graph, id) ? (isOwn(graph, id) ? 'data' : 'lists') : null
}

function chunkGroups() {
  return [
    { name: 'boot', test: BOOT, priority: 7 },
    { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 6 },
    {
      name: (id: string) => `texts-${/texts[\\/](\w+)\.ts$/.exec(id)?.[1] ?? 'other'}`,
      // A name made by a function needs a label of its own in the bundler's timing report.
      debugName: 'texts-<area>',
      test: /src[\\/]shared[\\/]texts[\\/]/,
      includeDependenciesRecursively: false,
      priority: 5,
    },
    { name: 'first', tags: ['$initial' as const], priority: 4 },
    { name: 'console', test: (id: string) => CONSOLE_ROOTS.test(id) || ICONS.test(id), priority: 3 },
    { name: 'table', test: TABLE, priority: 2 },
    // The code editor of Templates and Actions: its languages apart from its core, so neither chunk
    // passes Vite's 500 kB warning (together ~520 kB) and each editor screen still fetches two files.
    {
      name: 'editor-languages',
      test: EDITOR_LANGUAGES,
      includeDependenciesRecursively: false,
      priority: 1,
    },
    {
      name: screenGroups(DATA_ROOTS),
      debugName: 'data/lists',
      includeDependenciesRecursively: false,
      priority: 1,
    },
  ]
}

/**
 * PWA (docs/decisions/pwa.md): src/sw.ts is built into dist/ui/sw.js with the precache list injected.
 * injectManifest because the worker does push and Background Sync; no plugin manifest (the server
 * generates it from settings) and no injected registration (src/app/pwa registers and announces
 * updates); a classic iife worker that every browser with service workers can start.
 */
function pwa() {
  return VitePWA({
    strategies: 'injectManifest',
    srcDir: 'src',
    filename: 'sw.ts',
    scope: '/ui/',
    base: '/ui/',
    manifest: false,
    injectRegister: false,
    injectManifest: {
      rollupFormat: 'iife',
      globPatterns: ['**/*.{js,mjs,css,html,png,svg,ico,webp,woff,woff2}'],
      maximumFileSizeToCacheInBytes: 5 * 1024 * 1024,
    },
    devOptions: { enabled: false },
  })
}

/**
 * The analytics client script for Web Server pages (docs/using/analytics.md): built on its own after
 * the console, as one small classic script dist/ui/analytics.js with no shared chunks, so a page
 * including it loads a few kilobytes and none of the console. Part of every build, so a plain
 * `vite build` (npm start, the e2e fixtures) always has it.
 */
function analyticsScript(): Plugin {
  let outDir = ''
  return {
    name: 'momentum-analytics-script',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir
    },
    async closeBundle() {
      await build({
        configFile: false,
        logLevel: 'warn',
        publicDir: false,
        build: {
          outDir,
          emptyOutDir: false,
          sourcemap: false,
          lib: {
            entry: 'src/app/analytics/client-script.ts',
            formats: ['iife'],
            name: 'momentumAnalyticsScript',
            fileName: () => 'analytics.js',
          },
        },
      })
    },
  }
}
