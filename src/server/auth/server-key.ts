/**
 * The server's own HMAC key, kept in the data dir beside jwt.secret, or with PostgreSQL in the database
 * (auth/instance-secrets.ts hands it over through `shareServerKey`), so every instance behind a load
 * balancer agrees on it (docs/operating/postgres.md). Used where a value must be
 * reproducible by the server but worthless to anyone reading the database: idempotency request hashes
 * (a body may hold a password, and an unkeyed SHA-256 of it is a fast offline guess) and API token
 * secrets derived for an Idempotency-Key replay. Each use passes its own purpose label, so a value made
 * for one use can never stand for another.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'

const FILE = 'server.key'
// Kept as KeyObjects: an HMAC under a Buffer key imports the key on every call, which was ~13 % of
// each write's HMAC (one per write with an Idempotency-Key, one per batch entry).
const keys = new Map<string, crypto.KeyObject>()

function load(dataDir: string): crypto.KeyObject {
  const cached = keys.get(dataDir)
  if (cached) return cached
  const file = path.join(dataDir, FILE)
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dataDir, { recursive: true })
    try {
      // 'wx': two instances starting at once on a shared dir must not overwrite each other's key.
      fs.writeFileSync(file, crypto.randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' })
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
  }
  const key = crypto.createSecretKey(Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64'))
  keys.set(dataDir, key)
  return key
}

/** The key to use for this data dir instead of its file: the one every instance on the database shares. */
export function shareServerKey(dataDir: string, key: Buffer): void {
  keys.set(dataDir, crypto.createSecretKey(key))
}

/** HMAC-SHA-256 under the data dir's key of `purpose` and the parts, NUL-separated; hex. */
export function serverHmac(dataDir: string, purpose: string, ...parts: string[]): string {
  return crypto
    .createHmac('sha256', load(dataDir))
    .update([purpose, ...parts].join('\u0000'))
    .digest('hex')
}
