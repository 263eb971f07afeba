/**
 * A request answered before its body has arrived (docs/decisions/security.md, "Sockets, push and
 * transport"): a 401 decided on the headers, a 413 on the content-length or the first bytes over the
 * limit, a 403 or 415. Two ways this went wrong:
 *
 * - node read and discarded the rest of the body however long it was (an anonymous client could
 *   stream a 2-hour body into a 401 on a kept-alive connection);
 * - Fastify marks a refused body `connection: close`, and node then closes the socket as soon as the
 *   answer is written, while the client is still sending: the client's next write meets a reset, so
 *   Node's fetch and curl report EPIPE / ECONNRESET instead of the 413 it was sent.
 *
 * So the rest of an unread body is read and discarded up to UNREAD_BODY_DISCARD_MAX_BYTES, and only
 * past that bound is the connection closed. A body that ends within it leaves the connection as
 * reusable as any other (the parser has framed the body, so the next request starts in the right
 * place). A body that stops arriving is cut by the idle timeout as ever (timeouts.ts).
 */
import type { FastifyInstance } from 'fastify'
import { UNREAD_BODY_DISCARD_MAX_BYTES } from '../../shared/constants'

export function registerUnreadBodyDrain(
  app: FastifyInstance,
  maxBytes: number = UNREAD_BODY_DISCARD_MAX_BYTES,
): void {
  app.addHook('onSend', (req, reply, payload, done) => {
    const raw = req.raw
    // Only refusals: a route that answers while it still reads its body (none today) is left alone.
    if (raw.complete || reply.statusCode < 400 || reply.statusCode >= 500) return done(null, payload)
    // The close is decided below, after the bounded discard: Fastify's `connection: close` would
    // make node cut the socket as soon as the answer is written, mid-send.
    const connection = reply.getHeader('connection')
    if (typeof connection === 'string' && connection.toLowerCase() === 'close')
      reply.removeHeader('connection')
    // Read here, before the answer: a body node "dumps" itself is dropped unseen and without bound.
    let discarded = 0
    const count = (chunk: Buffer) => {
      discarded += chunk.length
      if (discarded > maxBytes) {
        raw.removeListener('data', count)
        raw.socket.destroy()
      }
    }
    raw.on('data', count)
    raw.once('end', () => raw.removeListener('data', count))
    raw.resume()
    done(null, payload)
  })
}
