/**
 * One form rendered with rjsf from its field list (src/shared/forms.ts): the schema of the fields
 * visible for the current answers, the console's templates (rjsf-theme.tsx) and its schema check
 * (rjsf-validator.ts). A hidden field's answer is dropped as soon as it hides, so what is sent is what
 * the filler sees. Used by the filler and by the editor's live preview.
 */
import Form from '@rjsf/core'
import type { ErrorSchema } from '@rjsf/utils'
import { useEffect, useMemo, useRef, useState } from 'react'
import { type FormDoc, formSchema, pruneHidden, withoutBlankAnswers } from '../../../shared/forms'
import type { FilesContext } from './FileWidget'
import { defaultsOf, formUi } from './form-ui'
import { consoleTemplates, consoleWidgets } from './rjsf-theme'
import { consoleValidator } from './rjsf-validator'

type Answers = Record<string, unknown>

export interface SubmitResult {
  reset: boolean
  fields?: Record<string, string>
}

export interface FormFillProps {
  form: FormDoc
  /** Prefix of the inputs' ids: two renderings on one page (preview widths) must not share ids. */
  idPrefix: string
  /**
   * Called with valid answers and the files picked for the visible file fields (their answers are
   * the files' names until queued); says whether to start afresh, and the server's per-field messages.
   */
  onSubmit: (answers: Answers, files: Map<string, File>) => Promise<SubmitResult> | SubmitResult
  submitText?: string
  disabled?: boolean
  /** Told the answers as they change (hidden fields' dropped): the filler counts what is required now. */
  onAnswers?: (answers: Answers) => void
}

export function FormFill({ form, idPrefix, onSubmit, submitText, disabled, onAnswers }: FormFillProps) {
  const [data, setData] = useState<Answers>(() => defaultsOf(form))
  useEffect(() => onAnswers?.(data), [data, onAnswers])
  const [serverErrors, setServerErrors] = useState<ErrorSchema | undefined>()
  const schema = useMemo(() => formSchema(form, data), [form, data])
  const ui = useMemo(() => formUi(form, data, submitText), [form, data, submitText])
  const files = useRef<FilesContext>({ files: new Map() }).current

  return (
    <Form
      className="rjsf-console"
      schema={schema}
      uiSchema={ui}
      formData={data}
      validator={consoleValidator}
      templates={consoleTemplates}
      widgets={consoleWidgets}
      idPrefix={idPrefix}
      formContext={files}
      disabled={disabled}
      noHtml5Validate
      showErrorList={false}
      focusOnFirstError
      extraErrors={serverErrors}
      onChange={(e) => {
        setServerErrors(undefined)
        setData(pruneHidden(form, (e.formData ?? {}) as Answers))
      }}
      onSubmit={async (e) => {
        // Blank answers are none (the server drops them too): an optional field left "  " is not sent.
        const answers = withoutBlankAnswers(pruneHidden(form, (e.formData ?? {}) as Answers))
        // Only files whose field is still shown and answered: a hidden field's file is not sent.
        const picked = new Map([...files.files].filter(([name]) => answers[name] !== undefined))
        const { reset, fields } = await onSubmit(answers, picked)
        if (fields && Object.keys(fields).length) {
          setServerErrors(
            Object.fromEntries(Object.entries(fields).map(([k, m]) => [k, { __errors: [m] }])) as ErrorSchema,
          )
        }
        if (reset) {
          files.files.clear()
          setData(defaultsOf(form))
        }
      }}
    />
  )
}
