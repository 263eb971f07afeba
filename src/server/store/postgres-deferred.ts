/**
 * The PostgreSQL store's writes whose results nobody reads (a document's row, its change row, its
 * idempotency record), sent together as one statement instead of one round trip each. Every write
 * transaction holds the writers' advisory lock from its first statement to its COMMIT, so the round
 * trips in between are the whole cluster's write throughput: a single PATCH went from ten to four.
 *
 * The statements become data-modifying WITH clauses of one statement (PostgreSQL runs each exactly
 * once, to completion, on one snapshot). That is only the same as running them one by one when none
 * reads what another writes and no row is changed twice: the queue holds only writes (no clause reads
 * another's table rows), it is sent before every other statement of the transaction, and a statement
 * that names a row already queued (the same document or idempotency key written twice in one
 * transaction) sends the queue first.
 */
import type pg from 'pg'

export interface Statement {
  text: string
  params: unknown[]
  /** The row it changes, when it could be changed again in this transaction (a document, a key). */
  row?: string
}

/** Parameters of one statement at most (the protocol's limit is 65,535), leaving room for `final`. */
const MAX_PARAMS = 30_000
/** Clauses of one statement at most: a longer one costs PostgreSQL more to plan than it saves. */
const MAX_STATEMENTS = 200

const SELECT_NOTHING: Statement = { text: 'SELECT 1', params: [] }

/**
 * `statements` as WITH clauses of `final` (a query, or SELECT 1), their `$n` renumbered into one list.
 * Only for this store's own statement texts, which hold `$` nowhere but in their placeholders.
 */
export function joinStatements(
  statements: readonly Statement[],
  final: Statement = SELECT_NOTHING,
): Statement {
  if (statements.length === 0) return final
  if (statements.length === 1 && final === SELECT_NOTHING) return statements[0]!
  const params: unknown[] = []
  const renumber = (s: Statement) => {
    const base = params.length
    params.push(...s.params)
    return s.text.replace(/\$(\d+)/g, (_, n: string) => `$${base + Number(n)}`)
  }
  const clauses = statements.map((s, i) => `w${i} AS (${renumber(s)})`)
  return { text: `WITH ${clauses.join(', ')} ${renumber(final)}`, params }
}

export interface Deferred {
  /** Queues a statement; sends the queue first when it is full or already changes the same row. */
  add(statement: Statement): Promise<void>
  /** Sends what is queued, with `final` as the statement's own query when given. */
  flush(final?: Statement): Promise<void>
  /** Forgets what is queued (its savepoint or transaction is being rolled back). */
  drop(): void
}

export function deferredWrites(client: pg.PoolClient): Deferred {
  let queue: Statement[] = []
  let params = 0
  const rows = new Set<string>()
  const drop = () => {
    queue = []
    params = 0
    rows.clear()
  }
  const flush = async (final?: Statement) => {
    if (queue.length === 0 && !final) return
    const joined = joinStatements(queue, final)
    drop()
    await client.query(joined.text, joined.params)
  }
  return {
    async add(statement) {
      if (
        queue.length >= MAX_STATEMENTS ||
        params + statement.params.length > MAX_PARAMS ||
        (statement.row !== undefined && rows.has(statement.row))
      )
        await flush()
      queue.push(statement)
      params += statement.params.length
      if (statement.row !== undefined) rows.add(statement.row)
    },
    flush,
    drop,
  }
}
