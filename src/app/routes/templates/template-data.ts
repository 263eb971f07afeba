/**
 * Reading templates from the local mirror, live (they are a synced collection, so the screens work
 * offline), and the online-only calls the editor makes: a preview render and a PDF, which the server
 * makes and which therefore never wait in the outbox.
 */
import type { SyncDoc } from '../../../db/types'
import type { PdfPage, RenderedTemplate, TemplateDoc, TemplateErrorDetails } from '../../../shared/templates'
import { ApiError, api } from '../../api/client'
import { type Rows, useRow, useRows } from '../../data/collection-rows'

export const TEMPLATES = 'templates'

/** Every template of this device's mirror, live; undefined while loading. */
export const useTemplates = (): Rows | undefined => useRows(TEMPLATES)

/** One template, live: undefined while loading, null when this device does not have it. */
export const useTemplate = (id: string) => useRow(TEMPLATES, id)

export type RenderOutcome =
  | { ok: true; result: RenderedTemplate }
  | { ok: false; offline: boolean; message: string; details?: TemplateErrorDetails }

/** POST /api/templates/render with the unsaved draft; errors come back as values, not throws. */
export async function renderDraft(
  draft: TemplateDoc,
  data: Record<string, unknown> | undefined,
  signal?: AbortSignal,
): Promise<RenderOutcome> {
  try {
    const result = await api.request<RenderedTemplate>('/api/templates/render', {
      method: 'POST',
      body: data ? { template: draft, data } : { template: draft },
      signal,
    })
    return { ok: true, result }
  } catch (error) {
    if (error instanceof ApiError) {
      const body = (error.body ?? {}) as TemplateErrorDetails & { details?: TemplateErrorDetails }
      return { ok: false, offline: false, message: error.message, details: body.details ?? body }
    }
    if ((error as Error)?.name === 'AbortError') throw error
    return { ok: false, offline: true, message: String((error as Error)?.message ?? error) }
  }
}

/** POST /api/pdf {template, data, options}: the saved template rendered to a PDF Blob. */
export function fetchPdf(id: string, data: Record<string, unknown> | undefined, options?: PdfPage) {
  return api.request<Blob>('/api/pdf', {
    method: 'POST',
    body: { template: id, ...(data ? { data } : {}), ...(options ? { options } : {}) },
  })
}

export const kindOf = (doc: SyncDoc | undefined): string => (typeof doc?.kind === 'string' ? doc.kind : '')

/**
 * POST /api/pdf {template, data, save: {root: 'storage', path}}: the saved template rendered into a
 * Storage file (docs/operating/pdf.md "Save to Storage"); answers the file's entry. The server wants the folder
 * to exist, so a 404 creates the missing folders (a taken name, 409, is a folder already there) and
 * tries once more.
 */
export async function savePdfToStorage(
  id: string,
  data: Record<string, unknown> | undefined,
  path: string,
): Promise<{ path: string; name: string }> {
  const save = () =>
    api.request<{ path: string; name: string }>('/api/pdf', {
      method: 'POST',
      body: { template: id, ...(data ? { data } : {}), save: { root: 'storage', path } },
    })
  try {
    return await save()
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 404) throw error
    const parts = path.split('/').slice(0, -1)
    for (let i = 1; i <= parts.length; i++) {
      const folder = parts.slice(0, i).map(encodeURIComponent).join('/')
      try {
        await api.request(`/api/storage/${folder}`, { method: 'POST', body: { directory: true } })
      } catch (e) {
        if (!(e instanceof ApiError) || e.status !== 409) throw e
      }
    }
    return save()
  }
}
