/**
 * Refuses JSON request bodies nested deeper than a document may be (plus the deepest envelope, a
 * batch's) with a 400, for every route at once, before a handler sees the body. Documents themselves
 * are held to MAX_DOCUMENT_DEPTH where they are made (store/doc.ts makeDoc, issue 10); this outer
 * bound keeps any other handler — one that hashes, copies or walks the body — from meeting a body
 * nested thousands deep. Runs as a preValidation hook: after the guard and the JSON parser.
 */
import type { FastifyInstance } from 'fastify'
import { MAX_DOCUMENT_DEPTH } from '../../shared/constants'
import { SERVER_TEXT } from '../../shared/messages'
import { badRequest } from '../errors'
import { nestedDeeperThan } from '../store/doc'

/** POST /api/batch carries a document at `{mutations: [{body: …}]}`: three levels above it. */
const ENVELOPE_LEVELS = 3
export const MAX_BODY_DEPTH = MAX_DOCUMENT_DEPTH + ENVELOPE_LEVELS

export function registerBodyDepthCheck(app: FastifyInstance): void {
  app.addHook('preValidation', async (req) => {
    if (req.body !== undefined && nestedDeeperThan(req.body, MAX_BODY_DEPTH)) {
      throw badRequest(SERVER_TEXT.bodyTooDeep(MAX_BODY_DEPTH))
    }
  })
}
