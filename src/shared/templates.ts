/**
 * What the console and the server agree on about templates (issue 13, docs/operating/templates.md): the kinds,
 * the Liquid parts each kind holds, PDF page options, and the one validation both halves run, so a
 * template edited offline is refused by the console with the same words the server would use.
 */
import { TEMPLATE_TEXT } from './texts'

export const TEMPLATE_KINDS = ['email', 'sms', 'push', 'pdf', 'layout', 'partial'] as const
export type TemplateKind = (typeof TEMPLATE_KINDS)[number]

/**
 * One Liquid source field of a template. `html` parts are rendered with HTML escaping of every
 * `{{ }}` output; text parts (a subject, an SMS) are not, since `&amp;` in an SMS is a bug, not safety.
 */
export interface TemplatePart {
  field: string
  html: boolean
  required: boolean
}

const part = (field: string, html: boolean, required = false): TemplatePart => ({ field, html, required })

export const TEMPLATE_PARTS: Record<TemplateKind, readonly TemplatePart[]> = {
  email: [part('subject', false, true), part('html', true), part('text', false)],
  sms: [part('text', false, true)],
  push: [part('title', false, true), part('body', false), part('link', false)],
  pdf: [part('html', true, true), part('header', true), part('footer', true)],
  // Layouts and partials take the escaping of the part that uses them.
  layout: [part('content', true, true)],
  partial: [part('content', true, true)],
}

/** Largest Liquid source of one part, in characters (also the renderer's parseLimit per part). */
export const TEMPLATE_SOURCE_MAX_CHARS = 256 * 1024

export const PDF_PAGE_SIZES = ['A3', 'A4', 'A5', 'Letter', 'Legal', 'Tabloid'] as const
export type PdfPageSize = (typeof PDF_PAGE_SIZES)[number]
export const PDF_ORIENTATIONS = ['portrait', 'landscape'] as const

/** Page options of a pdf template and of POST /api/pdf `options`. Margins are CSS lengths. */
export interface PdfPage {
  size?: PdfPageSize
  orientation?: (typeof PDF_ORIENTATIONS)[number]
  margin?: { top?: string; right?: string; bottom?: string; left?: string }
}

export interface TemplateDoc {
  _id: string
  kind: TemplateKind
  name?: string
  description?: string
  /** Sample data (a JSON object) for previews. */
  sample?: Record<string, unknown>
  subject?: string
  html?: string
  text?: string
  title?: string
  body?: string
  link?: string
  header?: string
  footer?: string
  content?: string
  page?: PdfPage
}

/** POST /api/templates/{id}/render and /api/templates/render answer the rendered parts by field. */
export interface RenderedTemplate {
  kind: TemplateKind
  parts: Record<string, string>
}

/** Where a render failed (400 syntax error, 422 stopped): lines and columns count from 1. */
export interface TemplateErrorDetails {
  part?: string
  /** The layout or partial the error is in, when it is not the template itself. */
  template?: string
  line?: number
  column?: number
}

const CSS_LENGTH = /^(0|\d{1,4}(\.\d{1,3})?(px|in|cm|mm))$/
const MARGIN_SIDES = ['top', 'right', 'bottom', 'left'] as const

/** Checks page options; the message to show, or null. */
export function pdfPageError(page: unknown): string | null {
  if (page === undefined) return null
  if (!isObject(page)) return TEMPLATE_TEXT.pageInvalid
  for (const key of Object.keys(page)) {
    if (!['size', 'orientation', 'margin'].includes(key)) return TEMPLATE_TEXT.pageInvalid
  }
  if (page.size !== undefined && !PDF_PAGE_SIZES.includes(page.size as PdfPageSize))
    return TEMPLATE_TEXT.pageInvalid
  if (page.orientation !== undefined && !PDF_ORIENTATIONS.includes(page.orientation as 'portrait'))
    return TEMPLATE_TEXT.pageInvalid
  if (page.margin !== undefined) {
    if (!isObject(page.margin)) return TEMPLATE_TEXT.pageInvalid
    for (const [side, value] of Object.entries(page.margin)) {
      if (!MARGIN_SIDES.includes(side as 'top')) return TEMPLATE_TEXT.pageInvalid
      if (typeof value !== 'string' || !CSS_LENGTH.test(value)) return TEMPLATE_TEXT.pageInvalid
    }
  }
  return null
}

/** Checks a whole template (after a merge patch); the message to show, or null when it is valid. */
export function templateError(doc: Record<string, unknown>): string | null {
  const kind = doc.kind
  if (typeof kind !== 'string' || !TEMPLATE_KINDS.includes(kind as TemplateKind))
    return TEMPLATE_TEXT.kindInvalid
  for (const field of ['name', 'description'] as const) {
    const value = doc[field]
    if (value !== undefined && (typeof value !== 'string' || value.length > 1000))
      return TEMPLATE_TEXT.labelInvalid(field)
  }
  if (doc.sample !== undefined && !isObject(doc.sample)) return TEMPLATE_TEXT.sampleInvalid
  for (const p of TEMPLATE_PARTS[kind as TemplateKind]) {
    const value = doc[p.field]
    if (value === undefined) {
      if (p.required) return TEMPLATE_TEXT.partMissing(kind, p.field)
      continue
    }
    if (typeof value !== 'string') return TEMPLATE_TEXT.partNotString(p.field)
    if (value.length > TEMPLATE_SOURCE_MAX_CHARS)
      return TEMPLATE_TEXT.partTooLong(p.field, TEMPLATE_SOURCE_MAX_CHARS)
    if (p.required && !value.trim()) return TEMPLATE_TEXT.partMissing(kind, p.field)
  }
  if (kind === 'email' && !hasText(doc.html) && !hasText(doc.text)) return TEMPLATE_TEXT.emailBodyMissing
  if (kind === 'pdf') return pdfPageError(doc.page)
  if (doc.page !== undefined) return TEMPLATE_TEXT.pageOnlyPdf
  return null
}

/** The parts of a template that hold Liquid source, with their text. */
export function templateSources(doc: Record<string, unknown>): Array<TemplatePart & { source: string }> {
  const parts = TEMPLATE_PARTS[doc.kind as TemplateKind] ?? []
  return parts
    .filter((p) => typeof doc[p.field] === 'string')
    .map((p) => ({ ...p, source: doc[p.field] as string }))
}

const hasText = (v: unknown) => typeof v === 'string' && v.trim() !== ''

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}
