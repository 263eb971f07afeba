/**
 * The console builds to dist/ui and is served by the platform server under /ui. In `npm run dev` Vite
 * serves it on port 5173 with an empty base, and the API client then talks to {host}:8080 (SPEC §7),
 * while /api is also proxied so relative calls keep working.
 */
import react from '@vitejs/plugin-react'
import { build, defineConfig, type Plugin } from 'vite'
import { VitePWA } from 'vite-plugin-pwa'

const API_TARGET = process.env.MOMENTUM_API ?? 'http://127.0.0.1:8080'

export default defineConfig(({ command }) => ({
  base: command === 'serve' ? '/' : '/ui/',
  plugins: [react(), pwa(), analyticsScript()],
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
 * What /ui/login loads first, in about six files instead of ~30 (issue 20, docs/performance.md "7. Bundle"):
 * - `react`: React, react-dom and the scheduler, in their own chunk so it evaluates before every module
 *   that uses React (one merged chunk once ran lucide's forwardRef before React's CommonJS wrapper);
 * - `messages-<area>`: each text file of src/shared/messages/ alone, so a page loads only the areas it
 *   uses (the barrel src/shared/messages.ts re-exports all of them; without this group the initial group
 *   would pull every area in). They import only constants and plural, so no recursive capture is needed;
 * - `first`: every other module of the entry's static closure (`$initial`) in one chunk: fewer files
 *   and one gzip dictionary instead of ~25 small chunks with their import/export glue.
 * Everything else (the console, screens, libraries) keeps Rolldown's automatic chunks.
 * tests/shared/first-load-bundle.test.ts checks what stays out of the first load.
 */
function chunkGroups() {
  return [
    { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 3 },
    {
      name: (id: string) => `messages-${/messages[\\/](\w+)\.ts$/.exec(id)?.[1] ?? 'other'}`,
      test: /src[\\/]shared[\\/]messages[\\/]/,
      includeDependenciesRecursively: false,
      priority: 2,
    },
    { name: 'first', tags: ['$initial' as const], priority: 1 },
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
 * The analytics client script for Web Server pages (docs/analytics-console.md): built on its own after
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
