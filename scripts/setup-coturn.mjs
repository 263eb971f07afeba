#!/usr/bin/env node
/**
 * The video relay test (tests/e2e/video.spec.ts) starts Debian's coturn (/usr/bin/turnserver) as the
 * TURN relay. Installs it with apt-get when it is missing and we are root; otherwise says how and
 * exits 0: without coturn only that test is skipped (with the reason), everything else runs.
 */
import { execSync } from 'node:child_process'
import fs from 'node:fs'

const TURNSERVER = '/usr/bin/turnserver'

if (fs.existsSync(TURNSERVER)) process.exit(0)
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0
if (!isRoot) {
  console.warn(
    `coturn (${TURNSERVER}) is missing; the video relay test will be skipped. To run it:\n  sudo apt-get update && sudo apt-get install -y coturn`,
  )
  process.exit(0)
}
console.log('Installing coturn with apt-get (one time)...')
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
try {
  execSync('apt-get update -qq', { stdio: 'inherit', env })
  execSync('apt-get install -y -qq coturn', { stdio: 'inherit', env })
} catch (error) {
  console.warn(`apt-get could not install coturn (${error.message}); the video relay test will be skipped.`)
}
