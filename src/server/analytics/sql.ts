/**
 * The analytics tables live beside the document store, not in it: a visit is not a document (it is
 * never synced to a console, never edited, and a million of them must aggregate in milliseconds), so
 * they get plain typed tables with indexes and rollups. SQLite keeps them in their own file
 * (analytics.db in the data dir) so collector writes never wait on the document store's writer;
 * PostgreSQL keeps them in the same database as the documents.
 *
 * One small adapter runs the same SQL on both: statements are written with `?` placeholders and
 * numbered for PostgreSQL; everything used (ON CONFLICT, RETURNING, integer division) means the same
 * on both.
 */
import path from 'node:path'
import Database from 'better-sqlite3'
import pg from 'pg'

export interface SqlExec {
  all<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>
  /** Runs a statement; answers the number of rows it changed. */
  run(sql: string, params?: unknown[]): Promise<number>
}

export interface SqlDb extends SqlExec {
  readonly kind: 'sqlite' | 'postgres'
  /** ` FOR UPDATE` on PostgreSQL (row lock for read-then-write), '' on SQLite (one writer anyway). */
  readonly forUpdate: string
  tx<T>(fn: (q: SqlExec) => Promise<T>): Promise<T>
  close(): Promise<void>
}

const TABLES = (t: { big: string; real: string; blob: string }) => `
CREATE TABLE IF NOT EXISTS analytics_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS analytics_visits (
  id TEXT PRIMARY KEY, ts ${t.big} NOT NULL, visitor TEXT NOT NULL, session TEXT NOT NULL,
  path TEXT NOT NULL, referrer TEXT NOT NULL, ip TEXT NOT NULL, country TEXT NOT NULL,
  language TEXT NOT NULL, tz INTEGER NOT NULL, cpu INTEGER, memory ${t.real},
  width INTEGER NOT NULL, height INTEGER NOT NULL, speed ${t.real}, duration ${t.big},
  asn ${t.big}, org TEXT NOT NULL DEFAULT '');
CREATE INDEX IF NOT EXISTS analytics_visits_ts ON analytics_visits (ts);
CREATE INDEX IF NOT EXISTS analytics_visits_ip ON analytics_visits (ip, ts);
CREATE INDEX IF NOT EXISTS analytics_visits_visitor ON analytics_visits (visitor, ts);
CREATE INDEX IF NOT EXISTS analytics_visits_session ON analytics_visits (session, ts);
CREATE TABLE IF NOT EXISTS analytics_sessions (
  session TEXT PRIMARY KEY, visitor TEXT NOT NULL, ts ${t.big} NOT NULL, views INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS analytics_sessions_ts ON analytics_sessions (ts);
CREATE TABLE IF NOT EXISTS analytics_presence_hour (bucket ${t.big} NOT NULL, visitor TEXT NOT NULL,
  PRIMARY KEY (bucket, visitor));
CREATE TABLE IF NOT EXISTS analytics_presence_day (bucket ${t.big} NOT NULL, visitor TEXT NOT NULL,
  PRIMARY KEY (bucket, visitor));
CREATE TABLE IF NOT EXISTS analytics_rollup_hour (bucket ${t.big} NOT NULL, dim TEXT NOT NULL,
  key TEXT NOT NULL, n ${t.big} NOT NULL, PRIMARY KEY (bucket, dim, key));
CREATE TABLE IF NOT EXISTS analytics_rollup_day (bucket ${t.big} NOT NULL, dim TEXT NOT NULL,
  key TEXT NOT NULL, n ${t.big} NOT NULL, PRIMARY KEY (bucket, dim, key));
CREATE TABLE IF NOT EXISTS analytics_sketch_hour (bucket ${t.big} PRIMARY KEY, regs ${t.blob} NOT NULL);
CREATE TABLE IF NOT EXISTS analytics_sketch_day (bucket ${t.big} PRIMARY KEY, regs ${t.blob} NOT NULL);
`

/**
 * Columns added after a table's first release, for databases made before them (CREATE TABLE IF NOT
 * EXISTS leaves an existing table as it was): each is added once when missing.
 */
const ADDED_COLUMNS: Array<{ table: string; column: string; type: (t: { big: string }) => string }> = [
  // Issue 36 #12: the visit's autonomous system; older visits keep null / ''.
  { table: 'analytics_visits', column: 'asn', type: (t) => t.big },
  { table: 'analytics_visits', column: 'org', type: () => "TEXT NOT NULL DEFAULT ''" },
]

const SQLITE_SCHEMA = TABLES({ big: 'INTEGER', real: 'REAL', blob: 'BLOB' })
const POSTGRES_SCHEMA = TABLES({ big: 'bigint', real: 'double precision', blob: 'bytea' })
/** pg_advisory_lock key of the analytics schema ("analytic" in ASCII), distinct from the store's. */
const SCHEMA_LOCK = 0x616e616c79746963n.toString()

/** `?` → `$1, $2 …` (no statement here has a literal question mark). */
const numbered = (sql: string): string => {
  let i = 0
  return sql.replace(/\?/g, () => `$${++i}`)
}

export function openSqliteAnalytics(dataDir: string): SqlDb {
  const db = new Database(path.join(dataDir, 'analytics.db'))
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = NORMAL')
  db.pragma('busy_timeout = 5000')
  db.exec(SQLITE_SCHEMA)
  for (const { table, column, type } of ADDED_COLUMNS) {
    const columns = db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]
    if (!columns.some((c) => c.name === column))
      db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${type({ big: 'INTEGER' })}`)
  }
  const exec: SqlExec = {
    async all<T>(sql: string, params: unknown[] = []) {
      return db.prepare(sql).all(...params) as T[]
    },
    async run(sql: string, params: unknown[] = []) {
      return db.prepare(sql).run(...params).changes
    },
  }
  // better-sqlite3 has one connection: a transaction's statements must not interleave with another
  // request's, so transactions queue behind each other (each is only microseconds of work).
  let queue: Promise<unknown> = Promise.resolve()
  return {
    kind: 'sqlite',
    forUpdate: '',
    ...exec,
    tx<T>(fn: (q: SqlExec) => Promise<T>): Promise<T> {
      const next = queue.then(async () => {
        db.exec('BEGIN IMMEDIATE')
        try {
          const out = await fn(exec)
          db.exec('COMMIT')
          return out
        } catch (error) {
          db.exec('ROLLBACK')
          throw error
        }
      })
      queue = next.catch(() => {})
      return next
    },
    async close() {
      await queue
      db.close()
    },
  }
}

export async function openPostgresAnalytics(connectionString: string): Promise<SqlDb> {
  const pool = new pg.Pool({ connectionString, max: 4 })
  pool.on('error', () => {
    // An idle client died (server restart); the pool replaces it on the next query.
  })
  const setup = await pool.connect()
  try {
    // Several instances may start at once; CREATE … IF NOT EXISTS alone can race.
    await setup.query('SELECT pg_advisory_lock($1)', [SCHEMA_LOCK])
    await setup.query(POSTGRES_SCHEMA)
    for (const { table, column, type } of ADDED_COLUMNS)
      await setup.query(`ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS ${column} ${type({ big: 'bigint' })}`)
  } finally {
    await setup.query('SELECT pg_advisory_unlock($1)', [SCHEMA_LOCK]).catch(() => {})
    setup.release()
  }
  const over = (client: pg.Pool | pg.PoolClient): SqlExec => ({
    async all<T>(sql: string, params: unknown[] = []) {
      return (await client.query(numbered(sql), params)).rows as T[]
    },
    async run(sql: string, params: unknown[] = []) {
      return (await client.query(numbered(sql), params)).rowCount ?? 0
    },
  })
  return {
    kind: 'postgres',
    forUpdate: ' FOR UPDATE',
    ...over(pool),
    async tx<T>(fn: (q: SqlExec) => Promise<T>): Promise<T> {
      const client = await pool.connect()
      try {
        await client.query('BEGIN')
        const out = await fn(over(client))
        await client.query('COMMIT')
        return out
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {})
        throw error
      } finally {
        client.release()
      }
    },
    async close() {
      await pool.end()
    },
  }
}
