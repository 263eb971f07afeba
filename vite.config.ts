/**
 * The console builds to dist/ui and is served by the platform server under /ui. In `npm run dev` Vite
 * serves it on port 5173 with an empty base, and the API client then talks to {host}:8080 (SPEC §7),
 * while /api is also proxied so relative calls keep working.
 */
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

const API_TARGET = process.env.MOMENTUM_API ?? 'http://127.0.0.1:8080'

export default defineConfig(({ command }) => ({
  base: command === 'serve' ? '/' : '/ui/',
  plugins: [react()],
  build: { outDir: 'dist/ui', emptyOutDir: true, sourcemap: true },
  server: {
    port: 5173,
    strictPort: true,
    proxy: { '/api': { target: API_TARGET, ws: true, changeOrigin: false } },
  },
}))
