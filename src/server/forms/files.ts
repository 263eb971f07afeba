/**
 * File and photo fields on the server (issue 17, src/shared/forms-files.ts): the filler uploads each
 * file through the storage API (the Storage upload queue) into `forms/{form}/{submission}/` and
 * submits its path as the answer. Here the submission's paths are held to that folder and the files
 * to the field's size and type, and the form's folder is made for its fillers.
 */
import { type FormDoc, visibleFields } from '../../shared/forms'
import {
  accepts,
  FORM_FILE_DEFAULT_MB,
  FORM_FILES_FOLDER,
  FORM_FILES_ROOT,
  fileMaxBytes,
  isFileField,
  isOwnFilePath,
} from '../../shared/forms-files'
import { FORM_FILES_TEXT, FORMS_TEXT } from '../../shared/texts'
import { badRequest } from '../errors'
import type { Services } from '../services'
import { contentTypeOf } from '../storage/content-type'
import { recordEntries } from '../storage/meta'

/**
 * 400 with one message per file field unless each answer is this submission's own file, present in
 * storage, within the field's size and of a type it accepts. Uploads come first (the console holds a
 * submission until its uploads are acknowledged), so a missing file is a client that skipped them.
 */
export async function checkFileAnswers(
  services: Services,
  formId: string,
  submission: string,
  form: FormDoc,
  answers: Record<string, unknown>,
): Promise<void> {
  const blobs = services.blobs[FORM_FILES_ROOT]
  const fields: Record<string, string> = {}
  for (const f of visibleFields(form, answers).filter(isFileField)) {
    const value = answers[f.name]
    if (value === undefined) continue
    if (!isOwnFilePath(value, formId, submission, f.name)) {
      fields[f.name] = FORM_FILES_TEXT.pathInvalid(f.label)
      continue
    }
    const stat = await blobs.stat(value as string)
    if (stat?.type !== 'file') fields[f.name] = FORM_FILES_TEXT.missing(f.label)
    else if (stat.size > fileMaxBytes(f))
      fields[f.name] = FORM_FILES_TEXT.tooLarge(f.label, stat.size, f.maxMB ?? FORM_FILE_DEFAULT_MB)
    else if (!accepts(f.accept, stat.name, contentTypeOf(stat.name)))
      fields[f.name] = FORM_FILES_TEXT.wrongType(f.label, stat.name, f.accept ?? '')
  }
  const count = Object.keys(fields).length
  if (count) throw badRequest(FORMS_TEXT.answersInvalid(count), { fields })
}

/**
 * Makes `forms/{form}` in storage for a form with a file field, so a filler's queue needs only one
 * folder of its own (the submission's) before its uploads. Made by the server, on the form's authority:
 * a filler may be allowed to create in it without any right on the storage root.
 */
export async function ensureFormFolder(services: Services, formId: string, form: FormDoc): Promise<void> {
  if (!form.fields.some(isFileField)) return
  const blobs = services.blobs[FORM_FILES_ROOT]
  const made = []
  for (const folder of [FORM_FILES_FOLDER, `${FORM_FILES_FOLDER}/${formId}`]) {
    const stat = await blobs.stat(folder)
    if (stat) continue
    made.push(await blobs.mkdir(folder))
  }
  await recordEntries(services, null, FORM_FILES_ROOT, made)
}
