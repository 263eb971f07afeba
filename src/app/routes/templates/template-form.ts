/**
 * The edit model of one template (pure, no React): the form the editor holds, built from a stored
 * document, and back into the draft the server renders and the patch the sync engine writes. Only the
 * fields of the template's kind (src/shared/templates.ts) are in the form, so each kind brings its own.
 */

import { diffPatch } from '../../../shared/merge-patch'
import type { PdfPage, TemplateDoc, TemplateKind } from '../../../shared/templates'
import { TEMPLATE_PARTS } from '../../../shared/templates'
import { parseJsonObject } from '../../components/json-text'

export interface TemplateForm {
  name: string
  description: string
  /** The Liquid sources by field (subject, html, text, title, …), as the kind defines them. */
  parts: Record<string, string>
  /** The sample data as JSON text, edited as text and parsed for previews and saves. */
  sample: string
  page: { size: string; orientation: string; top: string; right: string; bottom: string; left: string }
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '')

export function formOf(doc: Record<string, unknown> | undefined, kind: TemplateKind): TemplateForm {
  const parts: Record<string, string> = {}
  for (const p of TEMPLATE_PARTS[kind]) parts[p.field] = str(doc?.[p.field])
  const page = (doc?.page ?? {}) as PdfPage
  return {
    name: str(doc?.name),
    description: str(doc?.description),
    parts,
    sample: doc?.sample ? JSON.stringify(doc.sample, null, 2) : '{}',
    page: {
      size: page.size ?? '',
      orientation: page.orientation ?? '',
      top: page.margin?.top ?? '',
      right: page.margin?.right ?? '',
      bottom: page.margin?.bottom ?? '',
      left: page.margin?.left ?? '',
    },
  }
}

/** The page options of the form, or undefined when none is set (the server's defaults apply). */
export function pageOf(form: TemplateForm): PdfPage | undefined {
  const { size, orientation, top, right, bottom, left } = form.page
  const margin = Object.fromEntries(
    Object.entries({ top, right, bottom, left }).filter(([, v]) => v.trim() !== ''),
  ) as PdfPage['margin']
  const page: PdfPage = {}
  if (size) page.size = size as PdfPage['size']
  if (orientation) page.orientation = orientation as PdfPage['orientation']
  if (margin && Object.keys(margin).length) page.margin = margin
  return Object.keys(page).length ? page : undefined
}

/** The sample data parsed, or null while its text is not a JSON object. */
export function sampleOf(form: TemplateForm): Record<string, unknown> | null {
  const parsed = parseJsonObject(form.sample.trim() || '{}')
  return parsed.ok ? parsed.value : null
}

/** The whole template the form describes (for previews, duplicates and validation). */
export function draftOf(form: TemplateForm, kind: TemplateKind, sample = sampleOf(form)): TemplateDoc {
  const draft: Record<string, unknown> = { kind }
  if (form.name.trim()) draft.name = form.name.trim()
  if (form.description) draft.description = form.description
  // Empty optional parts are left out: the server checks "html or text", not empty strings.
  for (const [field, source] of Object.entries(form.parts)) if (source !== '') draft[field] = source
  if (sample) draft.sample = sample
  if (kind === 'pdf') {
    const page = pageOf(form)
    if (page) draft.page = page
  }
  return draft as unknown as TemplateDoc
}

/**
 * The merge patch from the version the edit started from to the form: only what the user changed, a
 * cleared field as null (removed), so a concurrent change by someone else to another field is kept.
 */
export function patchOf(base: TemplateForm, form: TemplateForm, kind: TemplateKind): Record<string, unknown> {
  const { kind: _k, ...before } = draftOf(base, kind) as unknown as Record<string, unknown>
  const { kind: _k2, ...after } = draftOf(form, kind) as unknown as Record<string, unknown>
  // Nested objects (sample, page) are diffed key by key: a removed sample key is null, not kept.
  return diffPatch(before, after)
}

/** A new template of a kind: a small valid starting point, so the first save passes the server's check. */
export function starterOf(kind: TemplateKind, name: string): Record<string, unknown> {
  const base = { kind, name, sample: { name: 'Ada' } }
  switch (kind) {
    case 'email':
      return {
        ...base,
        subject: 'Hello {{ name }}',
        html: '<p>Hello {{ name }}</p>',
        text: 'Hello {{ name }}',
      }
    case 'sms':
      return { ...base, text: 'Hello {{ name }}' }
    case 'push':
      return { ...base, title: 'Hello {{ name }}', body: '' }
    case 'pdf':
      return { ...base, html: '<h1>Hello {{ name }}</h1>', page: { size: 'A4' } }
    case 'layout':
      return { ...base, content: '<html><body>{% block content %}{% endblock %}</body></html>' }
    case 'partial':
      return { ...base, content: '<p>{{ name }}</p>' }
  }
}

/** Labels of the Liquid fields in the editor. */
export const PART_LABELS: Record<string, string> = {
  subject: 'Subject',
  html: 'HTML',
  text: 'Plain text',
  title: 'Title',
  body: 'Body',
  link: 'Link',
  header: 'Page header',
  footer: 'Page footer',
  content: 'Content',
}

/** Fields edited with the HTML + Liquid editor; the others are one-line or plain Liquid text. */
export const HTML_FIELDS = new Set(['html', 'header', 'footer', 'content'])
export const SINGLE_LINE_FIELDS = new Set(['subject', 'title', 'link'])
