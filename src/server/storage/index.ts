/**
 * Storage and the Web Server's files (SPEC §2, §3 Storage entry, §7): `/api/storage/{path}` over
 * `{MOMENTUM_DATA}/storage` and `/api/static/{path}` over the Web Server root (config.staticDir, the site
 * served at `/`). Both roots are the same module over a BlobStore each (blob-store.ts), so an S3 store
 * can replace the disk one without touching a route. docs/operating/storage.md has the API and its decisions.
 *
 * Surface, for each root R in `storage`, `static` (P = the path after /api/R/, '' at the root):
 *
 *   route                          permission (guard)  also checked in the handler           write rules
 *   GET    /api/R[/P]              R/P:r               listings keep entries allowed `r`     -
 *          ?all=true  whole subtree, ?meta=true  {path, name, description, size, type, modified, children}
 *          a file: streamed, Range (206/416), ETag + Last-Modified (304), nosniff, active types attachment
 *   POST   /api/R[/P] {directory}  R/P:c               the new folder `c`                    Idempotency-Key
 *   POST   /api/R[/P] {from}       R/P:c               source subtree `r`, its new paths `c` Idempotency-Key
 *   POST   /api/R[/P] multipart    R/P:c               each file `c` (`u` to replace)        Idempotency-Key
 *   PATCH  /api/R/P {move}         R/P:u               subtree `u`, its new paths `c`        Idempotency-Key
 *   PATCH  /api/R/P {description}  R/P:u               -                                     Idempotency-Key
 *   DELETE /api/R/P                R/P:d               subtree `d` (all or nothing)          Idempotency-Key
 *   POST /api/share, GET /api/share/{token}[/file]: share links, share.ts (its own checks)
 *   POST /api/uploads, HEAD|PATCH|DELETE /api/uploads/{id}: resumable uploads (tus), tus.ts (own checks)
 *
 * No If-Match: a file has no document revision; conflicting names answer 409 instead. Every write
 * upserts or deletes the entries' documents in the DocumentStore (meta.ts), so the change log and the
 * sync stream carry it to other users live. Offline clients queue writes with an Idempotency-Key (the
 * outbox), which makes each replay exactly-once (idempotent.ts).
 */
import path from 'node:path'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { S3Config, ServerConfig } from '../config'
import type { Services } from '../services'
import type { BlobStore } from './blob-store'
import { diskBlobStore } from './disk-store'
import { STORAGE_ROOTS, type StorageRoot, storageAccess } from './paths'
import { type RootContext, readRoute } from './read'
import { s3ClientFor } from './s3-client'
import { s3BlobStore } from './s3-store'
import { shareRoutes } from './share'
import { tusRoutes } from './tus'
import type { RootContexts } from './tus-finish'
import { uploadRoute } from './upload'
import { deleteRoute, patchRoute, postJsonRoute } from './write'

export type BlobStores = Record<StorageRoot, BlobStore>

/** The embedded default: both roots on the local disk. */
export function diskBlobStores(config: ServerConfig): BlobStores {
  return {
    storage: diskBlobStore(path.join(config.dataDir, 'storage')),
    static: diskBlobStore(config.staticDir),
  }
}

/** Both roots in one S3-compatible bucket, under `{prefix}storage/` and `{prefix}static/` (s3-store.ts). */
export function s3BlobStores(s3: S3Config): BlobStores {
  const client = s3ClientFor(s3)
  return {
    storage: s3BlobStore(client, s3.bucket, `${s3.prefix}storage/`),
    static: s3BlobStore(client, s3.bucket, `${s3.prefix}static/`),
  }
}

/** Where user pictures live (user-images.ts): `{MOMENTUM_DATA}/images`, or `{prefix}images/` in the bucket. */
export function userImageStore(config: ServerConfig): BlobStore {
  return config.s3
    ? s3BlobStore(s3ClientFor(config.s3), config.s3.bucket, `${config.s3.prefix}images/`)
    : diskBlobStore(path.join(config.dataDir, 'images'))
}

/**
 * The server's stores (made once, by compose.ts, as services.blobs): S3 when MOMENTUM_S3_BUCKET is
 * set, else the data dir. The API and the Web Server root at `/` (web-root.ts) read the same ones.
 */
export function blobStoresFor(config: ServerConfig): BlobStores {
  return config.s3 ? s3BlobStores(config.s3) : diskBlobStores(config)
}

export async function storageModule(
  api: FastifyInstance,
  services: Services,
  stores: BlobStores = services.blobs,
): Promise<void> {
  // Unfinished resumable uploads: their bytes wait in the data dir (their room is held in the store).
  const partials = services.uploads
  const contexts = {} as RootContexts
  for (const root of STORAGE_ROOTS) {
    const ctx: RootContext = { services, root, blobs: stores[root] }
    contexts[root] = ctx
    const config = { access: storageAccess(root) }
    const read = readRoute(ctx)
    const upload = uploadRoute(ctx)
    const postJson = postJsonRoute(ctx)
    const post = (req: FastifyRequest, reply: FastifyReply) =>
      req.isMultipart() ? upload(req, reply) : postJson(req, reply)
    const patch = patchRoute(ctx)
    const remove = deleteRoute(ctx)
    for (const url of [`/${root}`, `/${root}/*`]) {
      api.get(url, { config }, read)
      api.post(url, { config }, post)
      api.patch(url, { config }, patch)
      api.delete(url, { config }, remove)
    }
  }
  // Share links: POST /api/share, GET /api/share/{token}[/file] (share.ts).
  shareRoutes(api, services, stores)
  // Resumable uploads (tus): POST /api/uploads, HEAD/PATCH/DELETE /api/uploads/{id} (tus.ts).
  tusRoutes(api, services, partials, contexts)
}
