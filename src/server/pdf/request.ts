/**
 * A PDF request (`html`, `url` or `template` + `data`, `options`, `save`) as POST /api/pdf takes it
 * (docs/operating/pdf.md), shared by that route and by action scripts' `pdf.create` (docs/operating/actions.md), so both
 * judge sources, options, template rights and save targets by one set of rules. The caller's rights
 * come as a request's `auth` (an action passes a stand-in carrying its run-as rights).
 * One renderer (one warm Chromium) per server: `services.pdf`, made by compose.ts.
 */
import type { FastifyRequest } from 'fastify'
import { isValidId } from '../../shared/ids'
import { isPlainObject } from '../../shared/merge-patch'
import { STORAGE_ROOTS, type StorageRoot } from '../../shared/storage'
import { type PdfPage, pdfPageError } from '../../shared/templates'
import { PDF_TEXT, SERVER_TEXT, TEMPLATE_TEXT, VALIDATION } from '../../shared/texts'
import { requirePermission } from '../auth/guard'
import { ApiError, badRequest } from '../errors'
import type { Services } from '../services'
import { checkSaveTarget, type SaveTarget } from '../storage/save-file'
import { renderTemplate, TEMPLATES } from '../templates/render'
import {
  PDF_TIMEOUT_MS,
  PdfBusyError,
  PdfLoadError,
  type PdfOptions,
  type PdfSource,
  PdfTimeoutError,
  PdfUnavailableError,
} from './renderer'
import { checkPdfUrl } from './url-guard'

export const given = (v: unknown) => v !== undefined && v !== null && v !== ''

/** What to print and how: the source, and the page options (a template's own, overridden by the request's). */
export async function pdfSource(
  services: Services,
  req: FastifyRequest,
  body: Record<string, unknown>,
): Promise<{ source: PdfSource; page: PdfOptions }> {
  const sources = (['html', 'url', 'template'] as const).filter((k) => given(body[k]))
  if (sources.length === 0) throw badRequest(VALIDATION.pdfMissing)
  if (sources.length > 1) throw badRequest(PDF_TEXT.oneSource)
  const options = parseOptions(body.options)
  if (sources[0] === 'html') {
    if (typeof body.html !== 'string' || !body.html.trim()) throw badRequest(PDF_TEXT.htmlInvalid)
    return { source: { html: body.html }, page: options }
  }
  if (sources[0] === 'url')
    return { source: { url: await checkPdfUrl(body.url, services.config.pdfAllowHosts) }, page: options }
  if (!isValidId(body.template)) throw badRequest(PDF_TEXT.templateInvalid)
  const id = body.template
  requirePermission(req, `${TEMPLATES}/${id}:r`)
  const doc = await services.store.get(TEMPLATES, id)
  if (!doc) throw new ApiError('not_found', SERVER_TEXT.notFound)
  if (doc.kind !== 'pdf') throw badRequest(PDF_TEXT.notPdfTemplate(id, String(doc.kind)))
  if (body.data !== undefined && body.data !== null && !isPlainObject(body.data))
    throw badRequest(TEMPLATE_TEXT.dataInvalid)
  const data = isPlainObject(body.data) ? body.data : isPlainObject(doc.sample) ? doc.sample : {}
  const { parts } = await renderTemplate(services, doc, data, req.auth.grants)
  return {
    source: { html: parts.html ?? '' },
    // The request's options win over the template's page settings, field by field.
    page: {
      ...((doc.page as PdfPage | undefined) ?? {}),
      ...(parts.header !== undefined ? { header: parts.header } : {}),
      ...(parts.footer !== undefined ? { footer: parts.footer } : {}),
      ...options,
    },
  }
}

/** Renders with the server's renderer, its failures as the API's errors. */
export async function renderPdf(services: Services, source: PdfSource, page: PdfOptions): Promise<Buffer> {
  try {
    return await services.pdf.render(source, page)
  } catch (error) {
    throw pdfError(error)
  }
}

/** `save: {root, path}`, judged (path, folder, permission) before anything is rendered. */
export function pdfSaveTarget(services: Services, req: FastifyRequest, save: unknown): Promise<SaveTarget> {
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
