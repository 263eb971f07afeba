#!/usr/bin/env node
/**
 * The store conformance suite runs against a real PostgreSQL (tests/helpers/postgres.ts starts a
 * throwaway cluster from Debian's binaries in /usr/lib/postgresql/N/bin, or uses DATABASE_URL_TEST).
 * Installs Debian's `postgresql` package with apt-get when missing and we are root, otherwise says how.
 * Only the binaries are needed: the tests never use the package's own cluster or service.
 */
import { execSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

const ROOT = '/usr/lib/postgresql'

function installed() {
  if (!fs.existsSync(ROOT)) return false
  return fs.readdirSync(ROOT).some((v) => fs.existsSync(path.join(ROOT, v, 'bin/initdb')))
}

if (process.env.DATABASE_URL_TEST || installed()) process.exit(0)
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0
if (!isRoot) {
  console.error(
    'PostgreSQL is missing (no initdb under /usr/lib/postgresql). Install it, or set DATABASE_URL_TEST to a server the tests may create databases on:\n  sudo apt-get update && sudo apt-get install -y postgresql',
  )
  process.exit(1)
}
console.log('Installing PostgreSQL with apt-get (one time)...')
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
execSync('apt-get update -qq', { stdio: 'inherit', env })
execSync('apt-get install -y -qq postgresql', { stdio: 'inherit', env })
if (!installed()) {
  console.error(`apt-get finished but no initdb is under ${ROOT}`)
  process.exit(1)
}
