// Templates, the Templates screen and PDF creation.
// One definition of each text; src/shared/texts.ts re-exports this file.
import { grouped } from '../plural'

/** Templates (issue 13, docs/operating/templates.md); the spec leaves them open. */
export const TEMPLATE_TEXT = {
  kindInvalid: 'kind must be one of email, sms, push, pdf, layout, partial',
  labelInvalid: (field: string): string => `${field} must be a string of at most 1,000 characters`,
  sampleInvalid: 'sample must be a JSON object',
  partMissing: (kind: string, field: string): string => `A ${kind} template needs ${field}`,
  partNotString: (field: string): string => `${field} must be a string`,
  partTooLong: (field: string, max: number): string => `${field} is longer than ${grouped(max)} characters`,
  emailBodyMissing: 'An email template needs html or text',
  pageInvalid:
    'page must be {size, orientation, margin}: size A3, A4, A5, Letter, Legal or Tabloid; orientation portrait or landscape; margin {top, right, bottom, left} as lengths such as 10mm',
  pageOnlyPdf: 'page options belong to pdf templates',
  dataInvalid: 'data must be a JSON object',
  draftMissing: 'Send {template: {kind, …parts}, data} to preview a template that is not saved',
  syntax: (where: string, line: number, column: number, detail: string): string =>
    `Syntax error in ${where} at line ${line}, column ${column}: ${detail}`,
  renderFailed: (where: string, detail: string): string => `Cannot render ${where}: ${detail}`,
  tooSlow: (seconds: number): string =>
    `The template took longer than ${seconds} s to render and was stopped`,
  tooMuchMemory: 'The template produced too much output and was stopped',
  referenceCycle: (path: string): string =>
    `The template includes itself (${path}) and was stopped: an include or layout must not lead back to where it started`,
  tooLong: 'The template is too long to render',
  missingReference: (name: string): string => `No layout or partial named '${name}' that you may read`,
  busy: 'Too many templates are being rendered; try again in a moment',
} as const

/** The Templates console screen (issue 13, docs/using/templates.md). */
export const TEMPLATES_CONSOLE_TEXT = {
  gone: 'This template does not exist, or this device has not received it yet.',
  previewOffline: 'The preview is rendered by the server and needs the network. Your edits are kept.',
  previewWaiting: 'Rendering…',
  sampleInvalid: 'Sample data must be a JSON object; the preview uses the saved sample until it parses.',
  pdfNeedsSave: 'Save the template first: the PDF is made from the saved version.',
  testSent: (to: string): string => `A test was sent to ${to}`,
  testNoAddress: (what: string): string => `Your user has no ${what}, so there is nowhere to send the test`,
  testNotSent: (detail: string): string => `The test was not sent: ${detail}`,
  noTestForKind: 'Layouts, partials and PDFs have no test message; preview them instead',
  duplicated: (id: string): string => `Duplicated as ${id}`,
  pdfSaveOffline: 'Saving to Storage needs the network: the server renders the PDF.',
  pdfPathMissing: 'Type where the PDF goes in Storage, such as pdf/invoice.pdf',
  pdfSaved: (path: string): string => `The PDF was saved to Storage as ${path}`,
} as const

/** POST /api/pdf (issue 13, docs/operating/pdf.md); the spec gives only VALIDATION.pdfMissing. */
export const PDF_TEXT = {
  oneSource: 'Send only one of html, url or template',
  htmlInvalid: 'html must be a non-empty string',
  templateInvalid: 'template must be the id of a pdf template',
  notPdfTemplate: (id: string, kind: string): string =>
    `Template ${id} is a ${kind} template; only pdf templates render to PDF`,
  urlInvalid: 'url must be an http:// or https:// address',
  urlPrivate: (host: string): string =>
    `${host} is a loopback, private or link-local address; the server does not fetch those`,
  urlUnresolved: (host: string): string => `The host ${host} cannot be resolved`,
  urlFailed: (detail: string): string => `The page could not be loaded: ${detail}`,
  optionsInvalid: 'options must be an object of page options (see docs/operating/pdf.md)',
  timeout: (seconds: number): string => `The PDF took longer than ${seconds} s to render and was stopped`,
  busy: 'Too many PDFs are being rendered; try again in a moment',
  unavailable: 'The PDF renderer (Chromium) is not available on this server',
  saveInvalid:
    'save must be {root, path}: root storage or static, path where the PDF goes in it (such as reports/x.pdf)',
} as const
