/**
 * The time bound on PostgreSQL reads that carry a $regex (issue 10): a read PostgreSQL cancels for
 * exceeding the bound answers 400 regexTooSlow, the connection goes back to the pool usable, and the
 * store's own list applies the bound only to filters holding a $regex. Needs a PostgreSQL server
 * (tests/helpers/postgres.ts); skipped without one, as the conformance suite's PostgreSQL half.
 */
import pg from 'pg'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { hasRegex, regexBoundedQuery } from '../../src/server/store/postgres-regex'
import { QUERY_TEXT } from '../../src/shared/texts'
import { startTestPostgres, type TestPostgres } from '../helpers/postgres'
import { describePostgres } from '../helpers/postgres-suite'

describePostgres('PostgreSQL $regex time bound', () => {
  let server: TestPostgres
  let pool: pg.Pool

  beforeAll(async () => {
    server = await startTestPostgres()
    pool = new pg.Pool({ connectionString: await server.newDatabase(), max: 1 })
  })
  afterAll(async () => {
    await pool?.end()
    await server?.close()
  })

  it('cancels a read past the bound with 400 and leaves the pooled connection usable', async () => {
    const passThrough = (error: unknown) => error
    await expect(regexBoundedQuery(pool, 'SELECT pg_sleep(30)', [], passThrough, 50)).rejects.toMatchObject({
      status: 400,
      message: QUERY_TEXT.regexTooSlow,
    })
    // One connection in the pool: it must be back, outside any transaction, without the timeout.
    const { rows } = await pool.query<{ t: string; tx: string }>(
      "SELECT current_setting('statement_timeout') AS t, txid_current_if_assigned()::text AS tx",
    )
    expect(rows[0]).toEqual({ t: '0', tx: null })
    const fast = await regexBoundedQuery<{ m: boolean }>(
      pool,
      "SELECT 'aaa' ~ $1 AS m",
      ['^a+$'],
      passThrough,
    )
    expect(fast.rows[0]!.m).toBe(true)
  })

  it('is applied to filters holding a $regex only', () => {
    expect(hasRegex({ a: { $regex: 'x' } })).toBe(true)
    expect(hasRegex({ $or: [{ b: 1 }, { a: { $not: { $regex: 'x' } } }] })).toBe(true)
    expect(hasRegex({ a: 'x' })).toBe(false)
    expect(hasRegex(undefined)).toBe(false)
  })
})
