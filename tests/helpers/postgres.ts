/**
 * A PostgreSQL server for tests. DATABASE_URL_TEST (a server the tests may create databases on) wins;
 * otherwise a throwaway cluster is made from Debian's packages (initdb + pg_ctl in a temp dir, a free
 * loopback port, trust auth, fsync off) and stopped when the suite ends. Each suite asks for fresh
 * databases, so suites never see each other's rows or notifications.
 *
 * PostgreSQL refuses to run as root, so as root the cluster runs as the `postgres` system user (made by
 * the Debian package) through runuser. When no PostgreSQL can be had, `findPostgres()` says why and the
 * caller skips its PostgreSQL half — except under CI=true, where .ci/run installs it, so absence fails.
 */
import { spawnSync } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'

export type PostgresAvailability = { available: true } | { available: false; reason: string }

export interface TestPostgres {
  /** A fresh, empty database; its URL. Dropped again by close(). */
  newDatabase(): Promise<string>
  /** Drops the databases made here and stops the cluster this helper started, if any. */
  close(): Promise<void>
}

const SETUP_HINT = 'run `node scripts/setup-postgres.mjs` or set DATABASE_URL_TEST'

function findBinDir(): string | null {
  const root = '/usr/lib/postgresql'
  if (!fs.existsSync(root)) return null
  const versions = fs
    .readdirSync(root)
    .filter((v) => fs.existsSync(path.join(root, v, 'bin/initdb')))
    .sort((a, b) => Number(b) - Number(a))
  return versions.length > 0 ? path.join(root, versions[0]!, 'bin') : null
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0

function systemUser(): string | null {
  for (const name of ['postgres', 'nobody']) {
    if (spawnSync('id', ['-u', name]).status === 0) return name
  }
  return null
}

/** Cheap check (no server started) so a test file can decide at load time whether to skip. */
export function findPostgres(): PostgresAvailability {
  if (process.env.DATABASE_URL_TEST) return { available: true }
  const result: PostgresAvailability = !findBinDir()
    ? { available: false, reason: `PostgreSQL is not installed (${SETUP_HINT})` }
    : isRoot() && !systemUser()
      ? { available: false, reason: 'running as root with no non-root user to run PostgreSQL as' }
      : { available: true }
  if (!result.available && process.env.CI === 'true') {
    throw new Error(`PostgreSQL is required in CI: ${result.reason}`)
  }
  return result
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo
      server.close(() => resolve(port))
    })
  })
}

interface Cluster {
  adminUrl: string
  stop(): void
}

/** initdb + pg_ctl start into a temp dir; the returned stop() is synchronous so exit hooks can use it. */
async function startCluster(): Promise<Cluster> {
  const bin = findBinDir()
  if (!bin) throw new Error(`PostgreSQL is not installed (${SETUP_HINT})`)
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'momentum-pg-'))
  const data = path.join(dir, 'data')
  const user = isRoot() ? systemUser() : null
  if (user) spawnSync('chown', ['-R', user, dir])
  const run = (cmd: string, args: string[]) => {
    const [file, argv] = user ? ['runuser', ['-u', user, '--', cmd, ...args]] : [cmd, args]
    const r = spawnSync(file, argv, { cwd: dir, encoding: 'utf8' })
    if (r.status !== 0) throw new Error(`${path.basename(cmd)} failed: ${r.stderr || r.stdout || r.error}`)
  }
  run(path.join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync'])
  const port = await freePort()
  const options = [
    `-p ${port}`,
    `-k ${dir}`,
    "-c listen_addresses='127.0.0.1'",
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
    '-c max_connections=100',
  ].join(' ')
  run(path.join(bin, 'pg_ctl'), ['-D', data, '-l', path.join(dir, 'log'), '-o', options, '-w', 'start'])
  let stopped = false
  const stop = () => {
    if (stopped) return
    stopped = true
    const args = ['-D', data, '-m', 'immediate', '-w', 'stop']
    const ctl = path.join(bin, 'pg_ctl')
    if (user) spawnSync('runuser', ['-u', user, '--', ctl, ...args])
    else spawnSync(ctl, args)
    fs.rmSync(dir, { recursive: true, force: true })
  }
  // A crashed or interrupted run must not leave a postgres process behind.
  process.once('exit', stop)
  return { adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`, stop }
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url)
  u.pathname = `/${database}`
  return u.toString()
}

async function adminQuery(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query(sql)
  } finally {
    await client.end()
  }
}

/** DATABASE_URL_TEST's server, or a throwaway cluster started for this suite. */
export async function startTestPostgres(): Promise<TestPostgres> {
  const cluster = process.env.DATABASE_URL_TEST ? null : await startCluster()
  const adminUrl = process.env.DATABASE_URL_TEST ?? cluster!.adminUrl
  const made: string[] = []
  return {
    async newDatabase() {
      const name = `momentum_test_${crypto.randomBytes(6).toString('hex')}`
      await adminQuery(adminUrl, `CREATE DATABASE ${name}`)
      made.push(name)
      return withDatabase(adminUrl, name)
    },
    async close() {
      if (cluster) {
        cluster.stop()
        return
      }
      for (const name of made) await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    },
  }
}
