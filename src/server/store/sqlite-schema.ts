/**
 * The SQLite store's database: its tables, the connection's pragmas, the start-up housekeeping (the
 * epoch, expired idempotency records) and the statements every request reuses, prepared once.
 */
import crypto from 'node:crypto'
import Database from 'better-sqlite3'
import { type Checkpointer, startCheckpointer } from './checkpointer'
import { registerQueryFunctions } from './query-regex'

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS docs (
  collection TEXT NOT NULL, id TEXT NOT NULL, rev INTEGER NOT NULL, body TEXT NOT NULL,
  PRIMARY KEY (collection, id)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS changes (
  seq INTEGER PRIMARY KEY AUTOINCREMENT, collection TEXT NOT NULL, id TEXT NOT NULL, op TEXT NOT NULL,
  rev INTEGER NOT NULL, doc TEXT, idem_key TEXT, time TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS idempotency (
  key TEXT NOT NULL, user TEXT NOT NULL, request_hash TEXT NOT NULL, status INTEGER NOT NULL, body TEXT,
  created TEXT NOT NULL, change_seq INTEGER, PRIMARY KEY (key, user)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS secrets (kind TEXT NOT NULL, id TEXT NOT NULL, value TEXT NOT NULL,
  PRIMARY KEY (kind, id)) WITHOUT ROWID;
`

/** Stored idempotent responses are kept this long; a client retrying later than this is a new request. */
const IDEMPOTENCY_TTL_MS = 7 * 24 * 3600 * 1000

interface DocRow {
  collection: string
  id: string
  rev: number
  body: string
}
export interface ChangeRow {
  seq: number
  collection: string
  id: string
  op: 'upsert' | 'delete'
  rev: number
  doc: string | null
  idem_key: string | null
  time: string
}

/**
 * A document write's idempotency record names its change row (`change_seq`, body NULL) instead of
 * holding a third copy of the document (issue 20): the change row already holds the exact JSON that was
 * answered, and change rows are never deleted. Databases made before the column get it here.
 */
function addChangeSeq(db: Database.Database) {
  const columns = db.prepare<[], { name: string }>('PRAGMA table_info(idempotency)').all()
  if (!columns.some((c) => c.name === 'change_seq'))
    db.exec('ALTER TABLE idempotency ADD COLUMN change_seq INTEGER')
}

export function openDatabase(file: string): { db: Database.Database; checkpointer: Checkpointer | null } {
  const db = new Database(file)
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = NORMAL')
  db.pragma('busy_timeout = 5000')
  // Checkpoints run in a worker thread (checkpointer.ts), not inside a request's COMMIT.
  const checkpointer = file === ':memory:' || file === '' ? null : startCheckpointer(db, file)
  db.exec(SCHEMA)
  addChangeSeq(db)
  registerQueryFunctions(db)
  if (!db.prepare('SELECT value FROM meta WHERE key = ?').get('epoch')) {
    db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)').run('epoch', crypto.randomUUID())
  }
  db.prepare('DELETE FROM idempotency WHERE created < ?').run(
    new Date(Date.now() - IDEMPOTENCY_TTL_MS).toISOString(),
  )
  return { db, checkpointer }
}

export type Statements = ReturnType<typeof prepareStatements>

export function prepareStatements(db: Database.Database) {
  return {
    getDoc: db.prepare<[string, string], DocRow>('SELECT * FROM docs WHERE collection = ? AND id = ?'),
    insertDoc: db.prepare('INSERT INTO docs (collection, id, rev, body) VALUES (?, ?, ?, ?)'),
    updateDoc: db.prepare('UPDATE docs SET rev = ?, body = ? WHERE collection = ? AND id = ?'),
    deleteDoc: db.prepare('DELETE FROM docs WHERE collection = ? AND id = ?'),
    insertChange: db.prepare(
      'INSERT INTO changes (collection, id, op, rev, doc, idem_key, time) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ),
    // The answer: `body`, or for a document write the JSON its change row holds (c_*, addChangeSeq).
    getIdem: db.prepare<[string, string], IdemRow>(
      `SELECT i.request_hash, i.status, i.body, i.change_seq, c.id AS c_id, c.rev AS c_rev, c.doc AS c_doc
       FROM idempotency i LEFT JOIN changes c ON c.seq = i.change_seq WHERE i.key = ? AND i.user = ?`,
    ),
    putIdem: db.prepare(
      'INSERT OR REPLACE INTO idempotency (key, user, request_hash, status, body, created, change_seq) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ),
    changesAfter: db.prepare<[number, number], ChangeRow>(
      'SELECT * FROM changes WHERE seq > ? ORDER BY seq LIMIT ?',
    ),
    headSeq: db.prepare<[], { seq: number | null }>('SELECT MAX(seq) AS seq FROM changes'),
    getSecret: db.prepare<[string, string], { value: string }>(
      'SELECT value FROM secrets WHERE kind = ? AND id = ?',
    ),
    setSecret: db.prepare('INSERT OR REPLACE INTO secrets (kind, id, value) VALUES (?, ?, ?)'),
    deleteSecret: db.prepare('DELETE FROM secrets WHERE kind = ? AND id = ?'),
    claimSecret: db.prepare('INSERT OR IGNORE INTO secrets (kind, id, value) VALUES (?, ?, ?)'),
  }
}

interface IdemRow {
  request_hash: string
  status: number
  body: string | null
  change_seq: number | null
  c_id: string | null
  c_rev: number | null
  c_doc: string | null
}

/** A stored idempotent answer: its status, its JSON text (null when it had no body) and its hash. */
export function idemAnswer(row: IdemRow): { status: number; json: string | null; requestHash: string } {
  let json = row.body
  if (row.change_seq !== null) {
    // Change rows are never deleted; a record naming a missing one must not let the write run again.
    if (row.c_id === null) throw new Error(`idempotency record names missing change ${row.change_seq}`)
    // What applyOne answered: the document, or for a delete its tombstone's answer.
    json = row.c_doc ?? JSON.stringify({ ok: true, _id: row.c_id, _rev: row.c_rev })
  }
  return { status: row.status, json, requestHash: row.request_hash }
}
