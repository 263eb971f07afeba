/**
 * Refuses JSON request bodies nested far deeper than any document may be with a 400, for every route
 * at once, before a handler sees the body. Documents themselves are held to MAX_DOCUMENT_DEPTH where
 * they are made (store/doc.ts makeDoc, issue 10), so a batch refuses only its own too-deep entry; this
 * outer bound keeps every handler — one that hashes, copies or walks the body — from meeting a body
 * nested thousands deep. Runs as a preValidation hook: after the guard and the JSON parser.
 */
import type { FastifyInstance } from 'fastify'
import { MAX_DOCUMENT_DEPTH } from '../../shared/constants'
import { SERVER_TEXT } from '../../shared/texts'
import { badRequest } from '../errors'
import { nestedDeeperThan } from '../store/doc'

/**
 * Twice a document's depth: room for any envelope (a batch holds documents three levels down) and for
 * a batch entry to be refused on its own, while no request can nest thousands deep.
 */
export const MAX_BODY_DEPTH = 2 * MAX_DOCUMENT_DEPTH

export function registerBodyDepthCheck(app: FastifyInstance): void {
  // A callback hook: every request passes here, most without a body (issue 20).
  app.addHook('preValidation', (req, _reply, done) => {
    if (req.body !== undefined && nestedDeeperThan(req.body, MAX_BODY_DEPTH)) {
      done(badRequest(SERVER_TEXT.bodyTooDeep(MAX_BODY_DEPTH)))
    } else done()
  })
}
