/**
 * One BlobStore conformance suite (blob-store-conformance-cases.ts) against both stores: the data dir
 * on disk (a temp dir) and an S3-compatible bucket (s3rver on loopback, tests/helpers/s3.ts). Each
 * case gets a fresh root: a new temp dir, or a new key prefix in the one bucket.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { configFromEnv } from '../../src/server/config'
import { diskBlobStore } from '../../src/server/storage/disk-store'
import { STAGING_NAME } from '../../src/server/storage/paths'
import { s3BlobStore } from '../../src/server/storage/s3-store'
import { startTestS3, type TestS3 } from '../helpers/s3'
import { startTestServer } from '../helpers/server'
import { type BlobHarness, blobStoreCases } from './blob-store-conformance-cases'

describe('BlobStore conformance: disk', () => {
  const dirs: string[] = []
  afterAll(() => {
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true })
  })
  blobStoreCases(async (): Promise<BlobHarness> => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'momentum-blobs-'))
    dirs.push(dir)
    const staging = path.join(dir, STAGING_NAME)
    return {
      store: diskBlobStore(dir),
      leftovers: async () => (fs.existsSync(staging) ? fs.readdirSync(staging) : []),
    }
  })
})

describe('BlobStore conformance: S3 (s3rver)', () => {
  let s3: TestS3
  beforeAll(async () => {
    s3 = await startTestS3()
  })
  afterAll(async () => {
    await s3?.close()
  })
  blobStoreCases(async (): Promise<BlobHarness> => {
    const config = s3.config()
    const base = `${config.prefix}storage/`
    return {
      store: s3BlobStore(s3.client, config.bucket, base),
      leftovers: () => s3.keys(`${base}${STAGING_NAME}/`),
    }
  })
})

describe('S3 configuration', () => {
  it('reads MOMENTUM_S3_* (path style with an endpoint, a prefix ending in /), and none without a bucket', () => {
    expect(configFromEnv({}).s3).toBeUndefined()
    expect(
      configFromEnv({
        MOMENTUM_S3_BUCKET: 'files',
        MOMENTUM_S3_ENDPOINT: 'http://127.0.0.1:9000',
        MOMENTUM_S3_ACCESS_KEY_ID: 'id',
        MOMENTUM_S3_SECRET_ACCESS_KEY: 'secret',
        MOMENTUM_S3_PREFIX: 'prod',
      }).s3,
    ).toEqual({
      bucket: 'files',
      endpoint: 'http://127.0.0.1:9000',
      region: 'us-east-1',
      accessKeyId: 'id',
      secretAccessKey: 'secret',
      prefix: 'prod/',
      forcePathStyle: true,
    })
    const aws = configFromEnv({ MOMENTUM_S3_BUCKET: 'files', MOMENTUM_S3_REGION: 'eu-west-3' }).s3
    expect(aws).toMatchObject({ endpoint: undefined, region: 'eu-west-3', prefix: '', forcePathStyle: false })
  })

  it('refuses to start on a bucket it cannot use, saying which', async () => {
    const s3 = await startTestS3()
    try {
      const s3Config = { ...s3.config(), bucket: 'no-such-bucket' }
      await expect(startTestServer({ s3: s3Config })).rejects.toThrow(/MOMENTUM_S3_BUCKET "no-such-bucket"/)
    } finally {
      await s3.close()
    }
  })
})
