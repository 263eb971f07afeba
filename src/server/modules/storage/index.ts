/**
 * Storage and the Web Server's files (SPEC §2, §3 Storage entry, §7): `/api/storage/{path}` over
 * `{MOMENTUM_DATA}/storage` and `/api/static/{path}` over the Web Server root (config.staticDir, the site
 * served at `/`). Both roots are the same module over a BlobStore each (blob-store.ts), so an S3 store
 * can replace the disk one without touching a route. docs/storage.md has the API and its decisions.
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
 *
 * No If-Match: a file has no document revision; conflicting names answer 409 instead. Every write
 * upserts or deletes the entries' documents in the DocumentStore (meta.ts), so the change log and the
 * sync stream carry it to other users live. Offline clients queue writes with an Idempotency-Key (the
 * outbox), which makes each replay exactly-once (idempotent.ts).
 */
import path from 'node:path'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { ServerConfig } from '../../config'
import type { Services } from '../../services'
import type { BlobStore } from './blob-store'
import { diskBlobStore } from './disk-store'
import { STORAGE_ROOTS, type StorageRoot, storageAccess } from './paths'
import { type RootContext, readRoute } from './read'
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

export async function storageModule(
  api: FastifyInstance,
  services: Services,
  stores: BlobStores = diskBlobStores(services.config),
): Promise<void> {
  for (const root of STORAGE_ROOTS) {
    const ctx: RootContext = { services, root, blobs: stores[root] }
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
}
