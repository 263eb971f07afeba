/**
 * POST /api/pdf (SPEC §7, issue 13, docs/pdf.md): `html`, `url` or `template` (+ `data`) and `options`
 * → application/pdf. Needs `pdf:c` (the guard's default for this route); template mode also needs
 * read access to the template, as its preview does. Missing all three answers SPEC §5's message.
 *
 * "Save to Storage": with `save: {root, path}` the PDF goes into a storage root instead (201 with its
 * StorageEntry), by the rules of an upload (storage/save-file.ts). The target and its permission are
 * judged before Chromium is asked for anything, and the write runs under the Idempotency-Key as the
 * storage writes do, so the console's outbox can replay it.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { isValidId } from '../../shared/ids'
import { isPlainObject } from '../../shared/merge-patch'
import { PDF_TEXT, SERVER_TEXT, TEMPLATE_TEXT, VALIDATION } from '../../shared/messages'
import { STORAGE_ROOTS, type StorageRoot } from '../../shared/storage'
import { type PdfPage, pdfPageError } from '../../shared/templates'
import { requirePermission } from '../auth/guard'
import { ApiError, badRequest } from '../errors'
import { bodyObject } from '../http/writes'
import {
  PDF_TIMEOUT_MS,
  PdfBusyError,
  PdfLoadError,
  type PdfOptions,
  PdfRenderer,
  type PdfSource,
  PdfTimeoutError,
  PdfUnavailableError,
} from '../pdf/renderer'
import { checkPdfUrl } from '../pdf/url-guard'
import type { Services } from '../services'
import { renderTemplate, TEMPLATES } from '../templates/render'
import { idempotent } from './storage/idempotent'
import { checkSaveTarget, type SaveTarget, saveFile } from './storage/save-file'

const given = (v: unknown) => v !== undefined && v !== null && v !== ''

export async function pdfModule(api: FastifyInstance, services: Services): Promise<void> {
  const { config, store } = services
  const renderer = new PdfRenderer({
    executablePath: config.chromiumPath,
    allowHosts: config.pdfAllowHosts,
  })
  api.addHook('onClose', async () => renderer.close())

  api.post('/pdf', async (req, reply) => {
    const body = bodyObject(req)
    const sources = (['html', 'url', 'template'] as const).filter((k) => given(body[k]))
    if (sources.length === 0) throw badRequest(VALIDATION.pdfMissing)
    if (sources.length > 1) throw badRequest(PDF_TEXT.oneSource)
    const options = parseOptions(body.options)

    let source: PdfSource
    let page: PdfOptions = options
    if (sources[0] === 'html') {
      if (typeof body.html !== 'string' || !body.html.trim()) throw badRequest(PDF_TEXT.htmlInvalid)
      source = { html: body.html }
    } else if (sources[0] === 'url') {
      source = { url: await checkPdfUrl(body.url, config.pdfAllowHosts) }
    } else {
      if (!isValidId(body.template)) throw badRequest(PDF_TEXT.templateInvalid)
      const id = body.template
      requirePermission(req, `${TEMPLATES}/${id}:r`)
      const doc = await store.get(TEMPLATES, id)
      if (!doc) throw new ApiError('not_found', SERVER_TEXT.notFound)
      if (doc.kind !== 'pdf') throw badRequest(PDF_TEXT.notPdfTemplate(id, String(doc.kind)))
      if (body.data !== undefined && body.data !== null && !isPlainObject(body.data))
        throw badRequest(TEMPLATE_TEXT.dataInvalid)
      const data = isPlainObject(body.data) ? body.data : isPlainObject(doc.sample) ? doc.sample : {}
      const { parts } = await renderTemplate(services, doc, data, req.auth.grants)
      source = { html: parts.html ?? '' }
      // The request's options win over the template's page settings, field by field.
      page = {
        ...((doc.page as PdfPage | undefined) ?? {}),
        ...(parts.header !== undefined ? { header: parts.header } : {}),
        ...(parts.footer !== undefined ? { footer: parts.footer } : {}),
        ...options,
      }
    }

    const render = async (): Promise<Buffer> => {
      try {
        return await renderer.render(source, page)
      } catch (error) {
        throw pdfError(error)
      }
    }
    if (given(body.save)) {
      const target = await saveTarget(services, req, body.save)
      return idempotent(services, req, reply, async () => ({
        status: 201,
        body: await saveFile(req, target, await render()),
      }))
    }
    const pdf = await render()
    return reply
      .type('application/pdf')
      .header('content-disposition', 'inline; filename="document.pdf"')
      .header('cache-control', 'no-store')
      .send(pdf)
  })
}

/** `save: {root, path}`, judged (path, folder, permission) before anything is rendered. */
function saveTarget(services: Services, req: FastifyRequest, save: unknown): Promise<SaveTarget> {
  if (
    !isPlainObject(save) ||
    !STORAGE_ROOTS.includes(save.root as StorageRoot) ||
    typeof save.path !== 'string'
  )
    throw badRequest(PDF_TEXT.saveInvalid)
  return checkSaveTarget(services, req, save.root as StorageRoot, save.path)
}

function parseOptions(value: unknown): PdfOptions {
  if (value === undefined || value === null) return {}
  if (!isPlainObject(value)) throw badRequest(PDF_TEXT.optionsInvalid)
  const { header, footer, ...page } = value
  for (const part of [header, footer]) {
    if (part !== undefined && typeof part !== 'string') throw badRequest(PDF_TEXT.optionsInvalid)
  }
  const problem = pdfPageError(page)
  if (problem) throw badRequest(problem)
  return {
    ...(page as PdfPage),
    ...(header !== undefined ? { header: header as string } : {}),
    ...(footer !== undefined ? { footer: footer as string } : {}),
  }
}

function pdfError(error: unknown): unknown {
  if (error instanceof PdfBusyError) return new ApiError('unavailable', PDF_TEXT.busy)
  if (error instanceof PdfUnavailableError) return new ApiError('unavailable', PDF_TEXT.unavailable)
  if (error instanceof PdfTimeoutError)
    return new ApiError('unprocessable', PDF_TEXT.timeout(PDF_TIMEOUT_MS / 1000))
  if (error instanceof PdfLoadError) return new ApiError('bad_gateway', PDF_TEXT.urlFailed(error.message))
  return error
}
