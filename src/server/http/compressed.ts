/**
 * Compressed answers for the bulky read routes (a sync page is up to SYNC_PAGE_MAX_BYTES of JSON, a
 * collection list up to LIST_LIMIT_MAX documents): brotli or gzip, as the client accepts, through
 * @fastify/compress. A first mirror of 100,000 documents is ~60 MB of JSON; on a phone's connection the
 * bytes, not the server, are the wait.
 *
 * The websocket's large frames are deflated too (SOCKET_DEFLATE, the `ws` package's permessage-deflate).
 *
 * Registered in a scope of its own around just those routes: the plugin puts an onRequest hook on
 * every route of the context it is registered in (even with `global: false`), and the single document
 * read and write must stay without one (issue 20's server benchmark). docs/decisions/server-performance.md.
 */
import zlib from 'node:zlib'
import fastifyCompress from '@fastify/compress'
import type { FastifyInstance } from 'fastify'
import { API_COMPRESS_MIN_BYTES, SOCKET_COMPRESS_MIN_BYTES } from '../../shared/constants'

/**
 * Brotli at quality 4 (the plugin's own default, Cloudflare's pick for dynamic answers): a sync page
 * of 2,000 bench documents, 1.27 MB, becomes 56 KB in ~3 ms; quality 1 took ~1 ms for 78 KB.
 */
const BROTLI_QUALITY = 4

/** Registers `routes` in a child scope of `api` whose answers are compressed. Hooks of `api` still apply. */
export async function compressedRoutes(
  api: FastifyInstance,
  routes: (scope: FastifyInstance) => void | Promise<void>,
): Promise<void> {
  await api.register(async (scope) => {
    await scope.register(fastifyCompress, {
      global: true,
      encodings: ['br', 'gzip'],
      threshold: API_COMPRESS_MIN_BYTES,
      brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } },
      // Requests are not decompressed: no client of ours sends compressed bodies.
      globalDecompression: false,
    })
    await routes(scope)
  })
}

/**
 * permessage-deflate for the websocket (the `ws` package's options): only frames of
 * SOCKET_COMPRESS_MIN_BYTES and up, at zlib level 1 (a 1 MB catch-up page in ~2 ms, ~12x smaller), and
 * no context kept between messages, so an idle socket holds no compression window.
 */
export const SOCKET_DEFLATE = {
  threshold: SOCKET_COMPRESS_MIN_BYTES,
  zlibDeflateOptions: { level: 1, memLevel: 7 },
  serverNoContextTakeover: true,
  clientNoContextTakeover: true,
  concurrencyLimit: 4,
}
