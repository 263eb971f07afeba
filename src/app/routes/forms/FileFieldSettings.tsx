/**
 * The settings of a file or photo field (src/shared/forms-files.ts): which files it accepts (the file
 * input's `accept`), whether a phone opens its camera (`capture`), and the largest file in MB.
 */

import type { FormField } from '../../../shared/forms'
import { FORM_FILE_DEFAULT_MB, FORM_FILE_MAX_MB } from '../../../shared/forms-files'

/** Common choices offered as suggestions; any accept list may be typed. */
const ACCEPT_SUGGESTIONS = ['image/*', 'image/*,.pdf', '.pdf', 'video/*']

export function FileFieldSettings({
  id,
  field,
  onChange,
}: {
  id: (part: string) => string
  field: FormField
  onChange: (field: FormField) => void
}) {
  const set = (key: 'accept' | 'capture' | 'maxMB', value: string | boolean | number | undefined) => {
    const next: FormField = { ...field }
    if (value === undefined || value === '' || value === false) delete next[key]
    else (next as unknown as Record<string, unknown>)[key] = value
    onChange(next)
  }
  return (
    <div className="form-grid">
      <div className="field">
        <label htmlFor={id('accept')}>Accepted files</label>
        <input
          id={id('accept')}
          className="input mono"
          list={id('accept-list')}
          placeholder="any file"
          value={field.accept ?? ''}
          aria-describedby={id('accept-hint')}
          onChange={(e) => set('accept', e.target.value.trim() || undefined)}
        />
        <datalist id={id('accept-list')}>
          {ACCEPT_SUGGESTIONS.map((a) => (
            <option key={a} value={a} />
          ))}
        </datalist>
        <p className="field-hint" id={id('accept-hint')}>
          Types or extensions, comma-separated: image/* for photos, .pdf for PDF files.
        </p>
      </div>
      <div className="field">
        <label htmlFor={id('max-mb')}>Largest file (MB)</label>
        <input
          id={id('max-mb')}
          className="input"
          type="number"
          min={1}
          max={FORM_FILE_MAX_MB}
          placeholder={String(FORM_FILE_DEFAULT_MB)}
          value={field.maxMB ?? ''}
          onChange={(e) => set('maxMB', e.target.value === '' ? undefined : Number(e.target.value))}
        />
      </div>
      <label className="check-row">
        <input type="checkbox" checked={!!field.capture} onChange={(e) => set('capture', e.target.checked)} />
        <span>On phones, open the camera</span>
      </label>
    </div>
  )
}
