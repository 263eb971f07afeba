#!/usr/bin/env node
/**
 * End-to-end tests use Debian's Chromium at /usr/bin/chromium; browser downloads are not possible here.
 * The server renders PDFs with the same Chromium (docs/operating/pdf.md), and the PDF tests read a PDF's text back
 * with pdftotext (Debian poppler-utils). Installs what is missing with apt-get when we are root,
 * otherwise says how.
 */
import { execSync } from 'node:child_process'
import fs from 'node:fs'

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
// The notification-click test talks to Chromium's desktop notifications over a private D-Bus.
const DBUS = '/usr/bin/dbus-daemon'
const PDFTOTEXT = '/usr/bin/pdftotext'
const PACKAGES = 'chromium fonts-dejavu-core dbus-daemon poppler-utils'

if ([CHROMIUM, DBUS, PDFTOTEXT].every((file) => fs.existsSync(file))) process.exit(0)
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0
if (!isRoot) {
  console.error(
    `Chromium (${CHROMIUM}), dbus-daemon or pdftotext is missing. Install them, then run the tests again:\n  sudo apt-get update && sudo apt-get install -y ${PACKAGES}`,
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
