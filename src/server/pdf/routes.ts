/**
 * POST /api/pdf (SPEC §7, issue 13, docs/operating/pdf.md): `html`, `url` or `template` (+ `data`) and `options`
 * → application/pdf. Needs `pdf:c` (the guard's default for this route); template mode also needs
 * read access to the template, as its preview does. Missing all three answers SPEC §5's message.
 * The request's rules live in pdf/request.ts, shared with action scripts' `pdf.create`.
 *
 * "Save to Storage": with `save: {root, path}` the PDF goes into a storage root instead (201 with its
 * StorageEntry), by the rules of an upload (storage/save-file.ts). The target and its permission are
 * judged before Chromium is asked for anything, and the write runs under the Idempotency-Key as the
 * storage writes do, so the console's outbox can replay it.
 */
import type { FastifyInstance } from 'fastify'
import { type RouteTable, route } from '../http/route-table'
import { bodyObject } from '../http/writes'
import type { Services } from '../services'
import { idempotent } from '../storage/idempotent'
import { saveFile } from '../storage/save-file'
import { given, pdfSaveTarget, pdfSource, renderPdf } from './request'

/** POST /api/pdf: a page or HTML printed to PDF, or saved into storage (storage/save-file.ts). */
export const PDF_ROUTES: RouteTable = [
  route('POST', '/api/pdf', 'default', 'pdf:c (and {root}/{path}:c to save)'),
]

export async function pdfModule(api: FastifyInstance, services: Services): Promise<void> {
  api.post('/pdf', async (req, reply) => {
    const body = bodyObject(req)
    const { source, page } = await pdfSource(services, req, body)
    if (given(body.save)) {
      const target = await pdfSaveTarget(services, req, body.save)
      return idempotent(services, req, reply, async () => ({
        status: 201,
        body: await saveFile(req, target, await renderPdf(services, source, page)),
      }))
    }
    const pdf = await renderPdf(services, source, page)
    return reply
      .type('application/pdf')
      .header('content-disposition', 'inline; filename="document.pdf"')
      .header('cache-control', 'no-store')
      .send(pdf)
  })
}
