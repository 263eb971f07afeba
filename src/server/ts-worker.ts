/**
 * Worker threads whose entry is TypeScript (the template renderer, the action sandbox): the worker is
 * started with an eval'd boot script that loads the entry through tsx's loader, as `npm start` runs
 * the server, so no build step stands between a source change and its worker.
 */
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

/** The boot script for `new Worker(script, { eval: true })` that imports `entry` (a file: URL). */
export function tsWorkerBootScript(entry: URL): string {
  // The ESM entry of tsx's API (require.resolve would give its CommonJS one, which cannot tsImport).
  const manifest = createRequire(import.meta.url).resolve('tsx/package.json')
  const { exports } = JSON.parse(fs.readFileSync(manifest, 'utf8'))
  const tsx = pathToFileURL(path.join(path.dirname(manifest), exports['./esm/api'].import.default)).href
  const href = JSON.stringify(entry.href)
  return `import(${JSON.stringify(tsx)}).then(({ tsImport }) => tsImport(${href}, ${href}))`
}
