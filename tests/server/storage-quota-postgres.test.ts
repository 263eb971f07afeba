/**
 * The quota across instances (docs/operating/storage.md "Quota"): two real servers on one PostgreSQL database
 * and one S3 bucket (s3rver), each with its own data dir, racing uploads, copies and resumable
 * creations into the same root with a 100,000-byte quota. The holds live in the database
 * (`_storage_quota`), so neither instance can spend room the other has promised.
 */
import crypto from 'node:crypto'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { S3Config } from '../../src/server/config'
import { describePostgres, serverPairOnPostgres } from '../helpers/postgres-suite'
import { startTestS3, type TestS3 } from '../helpers/s3'
import type { TestServer } from '../helpers/server'
import { createdOrFull, FILE, form, holdsOf, QUOTA, storedBytes, tusCreate } from '../helpers/storage-quota'

describePostgres('the storage quota across two instances on PostgreSQL and one bucket', () => {
  let s3: TestS3
  let bucketArea: S3Config
  beforeAll(async () => {
    s3 = await startTestS3()
    bucketArea = s3.config()
  })
  afterAll(async () => {
    await s3?.close()
  })
  const pair = serverPairOnPostgres(() => ({ s3: bucketArea, storageQuota: { storage: QUOTA } }))
  let tokens: Map<TestServer, string>
  /** The servers taking turns, with their admin tokens. */
  const turns = (n: number) =>
    Array.from({ length: n }, (_, i) => {
      const server = i % 2 ? pair.b : pair.a
      return { i, server, token: tokens.get(server)! }
    })

  beforeAll(async () => {
    tokens = new Map([
      [pair.a, await pair.a.login()],
      [pair.b, await pair.b.login()],
    ])
  })

  async function emptyFolder(name: string): Promise<void> {
    const token = tokens.get(pair.a)!
    await pair.a.api(`/api/storage/${name}`, { method: 'DELETE', token })
    expect((await pair.a.api('/api/storage', { json: { directory: name }, token })).status).toBe(201)
  }

  it('10 parallel 30 kB uploads, half on each instance, store at most the quota', async () => {
    await emptyFolder('race')
    const answers = await Promise.all(
      turns(10).map(({ i, server, token }) =>
        server.api('/api/storage/race', {
          method: 'POST',
          body: form(`u${i}.bin`, crypto.randomBytes(FILE)),
          token,
        }),
      ),
    )
    const created = createdOrFull(answers)
    const stored = await storedBytes(pair.b, tokens.get(pair.b)!)
    expect(stored).toBeLessThanOrEqual(QUOTA)
    expect(stored).toBe(created * FILE)
    expect(created).toBeGreaterThanOrEqual(2)
    expect(await holdsOf(pair.a)).toEqual({})
  })

  it('8 parallel copies, half on each instance, store at most the quota', async () => {
    await emptyFolder('race')
    const source = await pair.a.api('/api/storage/race', {
      method: 'POST',
      body: form('src.bin', crypto.randomBytes(FILE)),
      token: tokens.get(pair.a)!,
    })
    expect(source.status).toBe(201)
    const answers = await Promise.all(
      turns(8).map(({ i, server, token }) =>
        server.api(`/api/storage/race/c${i}.bin`, { json: { from: 'race/src.bin' }, token }),
      ),
    )
    const created = createdOrFull(answers)
    expect(await storedBytes(pair.a, tokens.get(pair.a)!)).toBeLessThanOrEqual(QUOTA)
    expect(created).toBeGreaterThanOrEqual(1)
    expect(created).toBeLessThanOrEqual(2)
    expect(await holdsOf(pair.b)).toEqual({})
  })

  it('resumable creations on both instances hold at most the quota between them', async () => {
    await emptyFolder('race')
    const answers = await Promise.all(
      turns(10).map(({ i, server, token }) => tusCreate(server, token, 'race', `t${i}.bin`, FILE)),
    )
    const statuses = answers.map((r) => r.status)
    expect(statuses.every((s) => s === 201 || s === 413)).toBe(true)
    expect(statuses.filter((s) => s === 201).length).toBe(3)
    // Instance B sees A's promises: a 30 kB upload there no longer fits.
    const more = await pair.b.api('/api/storage/race', {
      method: 'POST',
      body: form('more.bin', crypto.randomBytes(FILE)),
      token: tokens.get(pair.b)!,
    })
    expect(more.status).toBe(413)
  })
})
