// Forms: the form document's checks, submissions and screens.
// One definition of each text; src/shared/texts.ts re-exports this file.
import { BYTE_STEP } from '../constants'
import { countOf } from '../plural'

/** Forms (issue 17, docs/operating/forms.md): the form document's checks, submissions and the console's forms screens. */
export const FORMS_TEXT = {
  titleMissing: 'A form needs a title',
  targetInvalid: 'The target must be a data collection, e.g. data/inspections',
  fillInvalid: "Who may fill must be 'group' or 'link'",
  groupMissing: 'Choose the group whose members may fill the form',
  messageInvalid: 'The message after submitting must be text',
  notifyInvalid: 'The notification needs an e-mail address',
  fieldsInvalid: 'Fields must be a list of fields',
  tooManyFields: (max: number): string => `A form has at most ${max} fields`,
  nameInvalid: (name: string): string =>
    `Field name '${name}' must start with a letter and hold only letters, digits and _ (64 at most)`,
  nameTaken: (name: string): string => `Two fields are named '${name}'`,
  typeInvalid: (name: string): string => `Field '${name}' has an unknown type`,
  labelMissing: (name: string): string => `Field '${name}' needs a label`,
  optionsMissing: (label: string): string => `'${label}' needs at least one option`,
  optionsInvalid: (label: string): string => `'${label}' has an empty or repeated option`,
  rangeInvalid: (label: string): string => `'${label}' has a minimum above its maximum`,
  conditionInvalid: (label: string): string =>
    `'${label}' can only depend on a field above it, with a text, number or yes/no value`,
  notFound: 'No such form',
  notAllowed: 'You may not fill this form',
  loginToFill: 'Log in to fill this form',
  tooMany: 'Too many submissions from this address; please wait a minute and send again',
  answersInvalid: (count: number): string => `Some answers need attention (${countOf(count, 'field')})`,
  queued: 'No network: your answers are kept on this device and sent when the connection returns',
  waiting: (n: number): string => `${countOf(n, 'submission')} waiting to be sent`,
  rejected: (message: string): string => `A queued submission was refused: ${message}`,
  noFields: 'Add a field to start',
  offlineNeverOpened: 'No network, and this form has not been opened on this device before.',
  cachedCopy: 'Offline: this is the copy of the form kept on this device.',
  previewChecked: 'Preview: these answers are valid (nothing was sent)',
  notifySubject: (title: string): string => `New answers to ${title}`,
  notifyIntro: (title: string, form: string): string => `Someone filled the form "${title}" (${form}):`,
  /** To the filler, when the form's owner no longer holds what the form does (nothing internal shown). */
  ownerLacks:
    'This form cannot take answers at the moment: it needs to be saved again by someone who manages it. Please let whoever sent you the form know.',
  /** Server Logs: why a submission was refused (for the form's managers, not the filler). */
  ownerLacksLog: (form: string, owner: string, permission: string): string =>
    `Form ${form}: a submission was refused because its owner ${owner} no longer has ${permission}; save the form again as someone who does`,
  /** Server Logs: a notification not sent because its owner reached their send limit. */
  notifySkipped: (form: string, owner: string): string =>
    `Form ${form}: a submission was stored without its e-mail notification: ${owner} reached the send limit`,
} as const

/** File and photo fields of forms (src/shared/forms-files.ts): picking, checking and uploading a file. */
const mb = (bytes: number): string => `${Math.round((bytes / BYTE_STEP / BYTE_STEP) * 10) / 10} MB`

export const FORM_FILES_TEXT = {
  tooLarge: (label: string, size: number, maxMB: number) =>
    `${label}: this file is ${mb(size)}; at most ${maxMB} MB is accepted.`,
  wrongType: (label: string, name: string, accept: string) =>
    `${label}: ${name} is not an accepted file (accepted: ${accept}).`,
  empty: (label: string) => `${label}: this file is empty.`,
  pathInvalid: (label: string) => `${label}: the file must be uploaded with this submission.`,
  missing: (label: string) => `${label}: the file has not arrived in storage yet. Send the form again later.`,
  linkForm:
    'A form filled by anyone with the link cannot have a file or photo field: a logged-out filler cannot upload files. Choose "Members of a group" under Who may fill it, or remove the field.',
  acceptInvalid: (label: string, acceptMax: number) =>
    `${label}: accepted files must be a comma-separated list such as image/* or .pdf (at most ${acceptMax} characters).`,
  maxInvalid: (label: string, maxMB: number) =>
    `${label}: the largest file must be between 1 and ${maxMB} MB.`,
  conditionOnFile: (label: string) => `${label}: a condition cannot look at a file field.`,
  uploading: (name: string) => `Uploading ${name}`,
  uploadWaiting: (name: string) => `${name} waits for the network`,
  uploaded: (name: string) => `${name} uploaded`,
  uploadFailed: (name: string, error: string) =>
    `${name} could not be uploaded: ${error || 'refused by the server'}. The answers are kept: retry the upload in the Sync panel (Uploads), or cancel it there and fill in the form again.`,
  waitsForFiles: 'Waiting for its files to be uploaded.',
} as const

/** The Sync panel's section of queued form submissions (src/app/sync-ui/FormsSection.tsx). */
export const FORMS_SYNC_TEXT = {
  title: 'Form submissions',
  empty: 'No form submissions waiting.',
  waiting: 'Waiting for the network',
  refused: (why: string) => `Refused: ${why}`,
} as const
