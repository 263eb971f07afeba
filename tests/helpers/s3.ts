/**
 * An S3-compatible service for tests: s3rver (a real HTTP server speaking the S3 protocol, objects in a
 * temp dir) on a free loopback port, with one bucket. `config()` is what a server or the S3 blob store
 * takes (MOMENTUM_S3_* parsed), each call with its own key prefix so suites may share one s3rver.
 *
 * One shim: s3rver reads `x-amz-copy-source` with decodeURI, which leaves `%23`, `%3F`, `%2B` … encoded,
 * so a copy of a file named `a#b` would look for the wrong key; AWS and MinIO decode it whole. The
 * middleware below re-encodes the header so only what decodeURI decodes is escaped. Two: s3rver reads
 * `Range: bytes=0-0` as "from 0 to the end" (an end of 0 is falsy there); the wrapped getObject below
 * serves the one byte asked for, as S3 does.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import type { S3Client } from '@aws-sdk/client-s3'
import S3rver from 's3rver'
import type { S3Config } from '../../src/server/config'
import { s3Bucket, s3ClientFor } from '../../src/server/storage/s3-client'

export interface TestS3 {
  endpoint: string
  bucket: string
  /** The configuration of a fresh area of the bucket (its own prefix). */
  config(): S3Config
  client: S3Client
  /** Every key in the bucket under `prefix`. */
  keys(prefix: string): Promise<string[]>
  close(): Promise<void>
}

interface KoaContext {
  headers: Record<string, string | undefined>
}

interface FilesystemStore {
  getObject(bucket: string, key: string, options?: { start?: number; end?: number }): Promise<S3rverObject>
  getResourcePath(bucket: string, key: string, kind: string): string
}
interface S3rverObject {
  content: fs.ReadStream | null
  range?: { start: number; end: number }
}

function fixFirstByteRange(store: FilesystemStore): void {
  const original = store.getObject.bind(store)
  store.getObject = async (bucket, key, options) => {
    const object = await original(bucket, key, options)
    if (options?.start === 0 && options.end === 0 && object?.content) {
      object.content.destroy()
      const file = store.getResourcePath(bucket, key, 'object')
      object.content = fs.createReadStream(file, { start: 0, end: 0 })
      object.range = { start: 0, end: 0 }
    }
    return object
  }
}

export async function startTestS3(): Promise<TestS3> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'momentum-s3-'))
  const bucket = 'momentum-test'
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  })
  const app = server as unknown as {
    middleware: Array<(ctx: KoaContext, next: () => Promise<void>) => unknown>
  }
  app.middleware.unshift((ctx, next) => {
    const source = ctx.headers['x-amz-copy-source']
    if (source) ctx.headers['x-amz-copy-source'] = encodeURI(decodeURIComponent(source))
    return next()
  })
  fixFirstByteRange((server as unknown as { store: FilesystemStore }).store)
  const address = (await server.run()) as AddressInfo
  const endpoint = `http://127.0.0.1:${address.port}`
  const base: S3Config = {
    bucket,
    endpoint,
    region: 'us-east-1',
    // s3rver's fixed credentials.
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    prefix: '',
    forcePathStyle: true,
  }
  const client = s3ClientFor(base)
  const raw = s3Bucket(client, bucket)
  return {
    endpoint,
    bucket,
    client,
    config: () => ({ ...base, prefix: `t-${crypto.randomBytes(4).toString('hex')}/` }),
    async keys(prefix) {
      return (await raw.list(prefix)).objects.map((o) => o.key)
    },
    async close() {
      client.destroy()
      await server.close()
      fs.rmSync(directory, { recursive: true, force: true })
    },
  }
}
