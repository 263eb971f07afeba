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
  build: { outDir: 'dist/ui', emptyOutDir: true, sourcemap: true },
  server: {
    port: 5173,
    strictPort: true,
    proxy: { '/api': { target: API_TARGET, ws: true, changeOrigin: false } },
  },
}))

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
