/**
 * File and photo fields of forms (issue 17, docs/operating/forms.md "File and photo fields"): where a submitted
 * file is stored, what a field accepts, and the messages, in one place for the filler (checked when a
 * file is picked), the editor and the server (checked again on the submission).
 *
 * The file goes through the Storage upload queue (src/app/storage/queue.ts) into the `storage` root at
 * `forms/{form}/{submission}/{field}-{file name}`; the answer stored in the target collection is that
 * path. A folder per submission keeps one filler's files together and apart from everyone else's, and
 * its name is the submission's id, so a replayed upload lands on the same path.
 */
import { BYTE_STEP, STORAGE_PATH_MAX } from './constants'
import type { FormField } from './forms'
import { FORM_FILES_TEXT } from './texts'

/** The storage root and top folder that hold the files of every form. */
export const FORM_FILES_ROOT = 'storage'
export const FORM_FILES_FOLDER = 'forms'
/** What a file field accepts when the editor does not say: 10 MB; the editor may allow up to 100 MB. */
export const FORM_FILE_DEFAULT_MB = 10
export const FORM_FILE_MAX_MB = 100
/** Longest `accept` list (`image/*,.pdf` …). */
export const FORM_FILE_ACCEPT_MAX = 200
/** Longest file name kept (the rest of the path is ids). */
const NAME_MAX = 120

export const isFileField = (f: Pick<FormField, 'type'>): boolean => f.type === 'file'

/** The largest file a field accepts, in bytes. */
export const fileMaxBytes = (f: Pick<FormField, 'maxMB'>): number =>
  (f.maxMB ?? FORM_FILE_DEFAULT_MB) * BYTE_STEP * BYTE_STEP

/**
 * Does a file match an `accept` list (as the browser's file input reads it: `.ext`, `type/*`,
 * `type/subtype`)? An empty list accepts anything.
 */
export function accepts(accept: string | undefined, name: string, type: string): boolean {
  const tokens = (accept ?? '')
    .split(',')
    .map((t) => t.trim().toLowerCase())
    .filter(Boolean)
  if (!tokens.length) return true
  const lower = name.toLowerCase()
  const mime = type.toLowerCase()
  return tokens.some((t) =>
    t.startsWith('.') ? lower.endsWith(t) : t.endsWith('/*') ? mime.startsWith(t.slice(0, -1)) : mime === t,
  )
}

/** Why this file cannot be the field's answer, or null: size (and empty), then type. */
export function fileProblem(
  f: Pick<FormField, 'label' | 'accept' | 'maxMB'>,
  file: { name: string; size: number; type: string },
): string | null {
  if (file.size === 0) return FORM_FILES_TEXT.empty(f.label)
  if (file.size > fileMaxBytes(f))
    return FORM_FILES_TEXT.tooLarge(f.label, file.size, f.maxMB ?? FORM_FILE_DEFAULT_MB)
  if (!accepts(f.accept, file.name, file.type))
    return FORM_FILES_TEXT.wrongType(f.label, file.name, f.accept ?? '')
  return null
}

/** Why a file field's own settings are wrong, or null (formError calls it). */
export function fileSettingsError(f: FormField): string | null {
  if (f.accept !== undefined && (typeof f.accept !== 'string' || f.accept.length > FORM_FILE_ACCEPT_MAX))
    return FORM_FILES_TEXT.acceptInvalid(f.label, FORM_FILE_ACCEPT_MAX)
  if (
    f.maxMB !== undefined &&
    (typeof f.maxMB !== 'number' || !Number.isFinite(f.maxMB) || f.maxMB <= 0 || f.maxMB > FORM_FILE_MAX_MB)
  )
    return FORM_FILES_TEXT.maxInvalid(f.label, FORM_FILE_MAX_MB)
  if (f.capture !== undefined && typeof f.capture !== 'boolean')
    return FORM_FILES_TEXT.acceptInvalid(f.label, FORM_FILE_ACCEPT_MAX)
  return null
}

/** A picked file's name made safe as one storage name: no separators, braces or control characters. */
export function safeFileName(name: string): string {
  const clean = name
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it replaces.
    .replace(/[\u0000-\u001f\u007f/\\{}]/g, '_')
    .trim()
    .replace(/^\.+/, '')
  return clean.slice(-NAME_MAX) || 'file'
}

/** The folder that holds one submission's files. */
export const submissionFolder = (form: string, submission: string): string =>
  `${FORM_FILES_FOLDER}/${form}/${submission}`

/** Where a field's file of one submission is stored (its answer). */
export const formFilePath = (form: string, submission: string, field: string, fileName: string): string =>
  `${submissionFolder(form, submission)}/${field}-${safeFileName(fileName)}`

/** Is this answer a path this submission's field may point at (the server checks the file too)? */
export function isOwnFilePath(value: unknown, form: string, submission: string, field: string): boolean {
  if (typeof value !== 'string' || value.length > STORAGE_PATH_MAX) return false
  const prefix = `${submissionFolder(form, submission)}/${field}-`
  if (!value.startsWith(prefix)) return false
  const name = value.slice(submissionFolder(form, submission).length + 1)
  return name === safeFileName(name)
}
