/**
 * rjsf's widget for a file or photo field (src/shared/forms-files.ts): a labelled file input whose
 * `accept` and `capture` (the phone's camera) come from the field. A picked file is checked at once
 * (size, type: the same rules the server applies) and kept aside in the form's `files` map, since the
 * answer itself is its storage path, known only when the submission is queued (FillPage).
 */
import { ariaDescribedByIds, type WidgetProps } from '@rjsf/utils'
import { useEffect, useRef, useState } from 'react'
import type { FormField } from '../../../shared/forms'
import { fileProblem } from '../../../shared/forms-files'

/** rjsf's formContext of a form with file fields: the picked files by field name. */
export interface FilesContext {
  files: Map<string, File>
}

export type FileOptions = Pick<FormField, 'name' | 'label' | 'accept' | 'capture' | 'maxMB'>

export function FileWidget(props: WidgetProps) {
  const { id, value, required, disabled, readonly, onChange, rawErrors, registry } = props
  const field = props.options.file as FileOptions
  const files = (registry.formContext as FilesContext | undefined)?.files
  const input = useRef<HTMLInputElement>(null)
  const [problem, setProblem] = useState<string | null>(null)

  // The form started afresh (after sending): the input forgets its file too.
  useEffect(() => {
    if (value === undefined && input.current) input.current.value = ''
  }, [value])

  return (
    <>
      <input
        ref={input}
        type="file"
        id={id}
        name={id}
        className="input form-file-input"
        accept={field.accept || undefined}
        capture={field.capture ? 'environment' : undefined}
        required={required}
        disabled={disabled || readonly}
        aria-invalid={rawErrors?.length || problem ? true : undefined}
        aria-describedby={`${ariaDescribedByIds(id)}${problem ? ` ${id}__file` : ''}`}
        onChange={(e) => {
          const file = e.target.files?.[0]
          const why = file ? fileProblem(field, file) : null
          setProblem(why)
          if (!file || why) {
            e.target.value = ''
            files?.delete(field.name)
            return onChange(undefined)
          }
          files?.set(field.name, file)
          onChange(file.name)
        }}
      />
      {problem && (
        <p className="field-error" id={`${id}__file`} role="alert">
          {problem}
        </p>
      )}
    </>
  )
}
