#!/usr/bin/env node
/** `npm start`: build the console when dist/ui is missing or older than the sources, then serve. */
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '..')
const index = path.join(root, 'dist/ui/index.html')

function newestMtime(dir) {
  let newest = 0
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(full))
    else newest = Math.max(newest, fs.statSync(full).mtimeMs)
  }
  return newest
}

const stale = !fs.existsSync(index) || newestMtime(path.join(root, 'src')) > fs.statSync(index).mtimeMs
if (stale) {
  console.log('Building the console (dist/ui)...')
  const build = spawnSync(path.join(root, 'node_modules/.bin/vite'), ['build', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
  })
  if (build.status !== 0) process.exit(build.status ?? 1)
}
const server = spawn(path.join(root, 'node_modules/.bin/tsx'), ['src/server/main.ts'], {
  cwd: root,
  stdio: 'inherit',
})
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => server.kill(sig))
server.on('exit', (code) => process.exit(code ?? 0))
