#!/usr/bin/env node
/**
 * End-to-end tests use Debian's Chromium at /usr/bin/chromium; browser downloads are not possible here.
 * Installs it with apt-get when missing and we are root, otherwise says how.
 */
import { execSync } from 'node:child_process'
import fs from 'node:fs'

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
// The notification-click test talks to Chromium's desktop notifications over a private D-Bus.
const DBUS = '/usr/bin/dbus-daemon'
const PACKAGES = 'chromium fonts-dejavu-core dbus-daemon'

if (fs.existsSync(CHROMIUM) && fs.existsSync(DBUS)) process.exit(0)
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0
if (!isRoot) {
  console.error(
    `Chromium (${CHROMIUM}) or dbus-daemon is missing. Install them, then run the tests again:\n  sudo apt-get update && sudo apt-get install -y ${PACKAGES}`,
  )
  process.exit(1)
}
console.log(`Installing ${PACKAGES} with apt-get (one time)...`)
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
execSync('apt-get update -qq', { stdio: 'inherit', env })
execSync(`apt-get install -y -qq ${PACKAGES}`, { stdio: 'inherit', env })
if (!fs.existsSync(CHROMIUM)) {
  console.error(`apt-get finished but ${CHROMIUM} is still missing`)
  process.exit(1)
}
