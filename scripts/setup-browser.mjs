#!/usr/bin/env node
/**
 * End-to-end tests use Debian's Chromium at /usr/bin/chromium; browser downloads are not possible here.
 * Installs it with apt-get when missing and we are root, otherwise says how.
 */
import { execSync } from 'node:child_process'
import fs from 'node:fs'

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

if (fs.existsSync(CHROMIUM)) process.exit(0)
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0
if (!isRoot) {
  console.error(
    `Chromium is missing at ${CHROMIUM}. Install it, then run the tests again:\n  sudo apt-get update && sudo apt-get install -y chromium fonts-dejavu-core`,
  )
  process.exit(1)
}
console.log('Installing Chromium with apt-get (one time)...')
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
execSync('apt-get update -qq', { stdio: 'inherit', env })
execSync('apt-get install -y -qq chromium fonts-dejavu-core', { stdio: 'inherit', env })
if (!fs.existsSync(CHROMIUM)) {
  console.error(`apt-get finished but ${CHROMIUM} is still missing`)
  process.exit(1)
}
