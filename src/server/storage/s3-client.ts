/**
 * The S3 calls the S3 blob store (s3-store.ts) needs, over one bucket: an object's head, a listing of
 * every key under a prefix (paged), copy and delete. Kept apart so the store reads as file operations.
 *
 * The client is configured for every S3-compatible service, not only AWS: SDK 3.729+ adds CRC32
 * checksums to every upload by default, which MinIO, s3rver and others store as part of the body
 * (aws-chunked encoding they do not decode), so checksums are sent and checked only where an operation
 * requires them; and the bucket goes in the path, which non-AWS services expect.
 */
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
} from '@aws-sdk/client-s3'
import type { S3Config } from '../config'

export interface S3Object {
  key: string
  size: number
  modified: Date
}

export interface S3Listing {
  objects: S3Object[]
  /** With a delimiter: the "folders" directly below, as key prefixes ending in `/`. */
  prefixes: string[]
}

/** Parallel requests for subtree copies and deletes: enough to be quick, few enough for any service. */
const PARALLEL = 8

export function s3ClientFor(config: S3Config): S3Client {
  return new S3Client({
    endpoint: config.endpoint,
    region: config.region,
    forcePathStyle: config.forcePathStyle,
    credentials:
      config.accessKeyId && config.secretAccessKey
        ? { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey }
        : undefined,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  })
}

/** Stops a start whose bucket cannot be reached, with the reason, instead of failing every file request. */
export async function checkBucket(config: S3Config): Promise<void> {
  const client = s3ClientFor(config)
  try {
    await client.send(new HeadBucketCommand({ Bucket: config.bucket }))
  } catch (error) {
    const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode
    const reason = status ? `HTTP ${status}` : (error as Error).message
    throw new Error(
      `MOMENTUM_S3_BUCKET "${config.bucket}" cannot be used at ${config.endpoint ?? 'AWS'} (${reason}): check the bucket exists and the credentials`,
    )
  } finally {
    client.destroy()
  }
}

export function isS3NotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } }
  return e?.name === 'NotFound' || e?.name === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404
}

/** `x-amz-copy-source`: bucket and key, each path segment percent-encoded (AWS decodes it whole). */
function copySource(bucket: string, key: string): string {
  return `${bucket}/${key.split('/').map(encodeURIComponent).join('/')}`
}

/** Runs `task` over `items`, at most PARALLEL at a time; the first failure rejects. */
export async function inParallel<T>(items: T[], task: (item: T) => Promise<void>): Promise<void> {
  let next = 0
  const worker = async () => {
    while (next < items.length) await task(items[next++]!)
  }
  await Promise.all(Array.from({ length: Math.min(PARALLEL, items.length) }, worker))
}

export function s3Bucket(client: S3Client, bucket: string) {
  return {
    async head(key: string): Promise<S3Object | null> {
      try {
        const res = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }))
        return { key, size: res.ContentLength ?? 0, modified: res.LastModified ?? new Date(0) }
      } catch (error) {
        if (isS3NotFound(error)) return null
        throw error
      }
    },

    /** Every key under `prefix` (all pages); with `delimiter` only one level, the rest as prefixes. */
    async list(prefix: string, options: { delimiter?: boolean; max?: number } = {}): Promise<S3Listing> {
      const out: S3Listing = { objects: [], prefixes: [] }
      let token: string | undefined
      do {
        const res = await client.send(
          new ListObjectsV2Command({
            Bucket: bucket,
            Prefix: prefix,
            Delimiter: options.delimiter ? '/' : undefined,
            ContinuationToken: token,
            MaxKeys: options.max,
          }),
        )
        for (const o of res.Contents ?? []) {
          if (o.Key)
            out.objects.push({ key: o.Key, size: o.Size ?? 0, modified: o.LastModified ?? new Date(0) })
        }
        for (const p of res.CommonPrefixes ?? []) if (p.Prefix) out.prefixes.push(p.Prefix)
        token = res.IsTruncated && !options.max ? res.NextContinuationToken : undefined
      } while (token)
      return out
    },

    async copy(from: string, to: string): Promise<void> {
      await client.send(
        new CopyObjectCommand({ Bucket: bucket, Key: to, CopySource: copySource(bucket, from) }),
      )
    },

    /** One DeleteObject per key: DeleteObjects needs a checksum header that not every service accepts. */
    async remove(keys: string[]): Promise<void> {
      await inParallel(keys, async (key) => {
        await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }))
      })
    },
  }
}

export type S3Bucket = ReturnType<typeof s3Bucket>
