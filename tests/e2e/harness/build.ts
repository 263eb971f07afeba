/** Builds the feedback harness with Vite into a temp dir that harness/serve.ts then serves. */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import react from '@vitejs/plugin-react'
import { build } from 'vite'

export async function buildHarness(): Promise<string> {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'momentum-harness-'))
  await build({
    configFile: false,
    root: import.meta.dirname,
    base: '/',
    logLevel: 'warn',
    plugins: [react()],
    build: { outDir, emptyOutDir: true, sourcemap: false, minify: false },
  })
  return outDir
}
