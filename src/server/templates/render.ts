/**
 * Rendering a template document for a caller: its Liquid parts through the worker pool, layouts and
 * partials looked up in the templates collection with the caller's read permission, and failures
 * turned into the API's answers — 400 for what the author can fix by editing (a syntax error with its
 * line and column, a missing layout), 422 for a template stopped by a limit, 503 when the pool is full.
 */
import { isValidId } from '../../shared/ids'
import { decide, type Grant } from '../../shared/permissions'
import {
  type RenderedTemplate,
  type TemplateDoc,
  type TemplateErrorDetails,
  type TemplateKind,
  templateSources,
} from '../../shared/templates'
import { TEMPLATE_TEXT } from '../../shared/texts'
import { ApiError, badRequest } from '../errors'
import type { Services } from '../services'
import { type Lookup, PoolBusyError, type RenderPool, TEMPLATE_TIMEOUT_MS } from './pool'
import type { Failure, JobPart } from './protocol'

export const TEMPLATES = 'templates'

/** Layouts and partials by id, of the right kind, and only those the caller may read. */
export function collectionLookup(services: Services, grants: readonly Grant[] | null): Lookup {
  return async (dir, name) => {
    if (!isValidId(name)) return null
    if (grants && !decide(grants, `${TEMPLATES}/${name}`, 'r').allowed) return null
    const doc = await services.store.get(TEMPLATES, name)
    if (!doc || doc.kind !== dir || typeof doc.content !== 'string') return null
    return doc.content
  }
}

function jobParts(doc: Record<string, unknown>): JobPart[] {
  return templateSources(doc).map((p) => ({
    field: p.field,
    source: p.source,
    html: p.html,
    inlineCss: doc.kind === 'email' && p.field === 'html',
  }))
}

/** Parses every part (on save): a syntax error is a 400 with its line and column. */
export async function checkTemplate(services: Services, doc: Record<string, unknown>): Promise<void> {
  await runJob(services, 'check', doc, {}, collectionLookup(services, null))
}

/** Renders every part of a template with `data`. `grants` null: the server itself, no check. */
export async function renderTemplate(
  services: Services,
  doc: Record<string, unknown>,
  data: Record<string, unknown>,
  grants: readonly Grant[] | null,
): Promise<RenderedTemplate> {
  const parts = await runJob(services, 'render', doc, data, collectionLookup(services, grants))
  return { kind: doc.kind as TemplateKind, parts }
}

async function runJob(
  services: Services,
  op: 'check' | 'render',
  doc: Record<string, unknown>,
  data: Record<string, unknown>,
  lookup: Lookup,
): Promise<Record<string, string>> {
  let result: Awaited<ReturnType<RenderPool['run']>>
  try {
    result = await services.renderPool.run({ op, parts: jobParts(doc), data }, lookup)
  } catch (error) {
    if (error instanceof PoolBusyError) throw new ApiError('unavailable', TEMPLATE_TEXT.busy)
    throw error
  }
  if (result.ok) return result.parts
  throw failureError(result.failure, doc as Partial<TemplateDoc>)
}

function failureError(failure: Failure, doc: Partial<TemplateDoc>): ApiError {
  const [dir, ...rest] = failure.file?.split('/') ?? []
  const name = rest.join('/')
  const where = failure.file ? `${dir} '${name}' (used by ${failure.part})` : (failure.part ?? doc.kind ?? '')
  const details: TemplateErrorDetails = {
    ...(failure.part ? { part: failure.part } : {}),
    ...(failure.file ? { template: name } : {}),
    ...(failure.line ? { line: failure.line, column: failure.column } : {}),
  }
  switch (failure.kind) {
    case 'syntax':
      return badRequest(TEMPLATE_TEXT.syntax(where, failure.line ?? 1, failure.column ?? 1, failure.detail), {
        ...details,
      })
    case 'missing':
      return badRequest(TEMPLATE_TEXT.missingReference(name || failure.detail), { ...details })
    case 'length':
      return new ApiError('unprocessable', TEMPLATE_TEXT.tooLong, { ...details })
    case 'time':
      return new ApiError('unprocessable', TEMPLATE_TEXT.tooSlow(TEMPLATE_TIMEOUT_MS / 1000), { ...details })
    case 'memory':
      return new ApiError('unprocessable', TEMPLATE_TEXT.tooMuchMemory, { ...details })
    case 'cycle':
      return new ApiError('unprocessable', TEMPLATE_TEXT.referenceCycle(failure.detail), { ...details })
    default:
      return new ApiError('unprocessable', TEMPLATE_TEXT.renderFailed(where, failure.detail), { ...details })
  }
}
