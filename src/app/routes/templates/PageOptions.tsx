/** Page options of a pdf template: size, orientation and margins (PdfPage in src/shared/templates.ts). */

import { PDF_ORIENTATIONS, PDF_PAGE_SIZES } from '../../../shared/templates'
import { TEMPLATES_CONSOLE_TEXT } from '../../../shared/texts'
import type { TemplateForm } from './template-form'

type Page = TemplateForm['page']
const SIDES = ['top', 'right', 'bottom', 'left'] as const

export function PageOptions(props: {
  form: TemplateForm
  readOnly: boolean
  modified: boolean
  onChange: (page: Page) => void
}) {
  const page = props.form.page
  const set = (key: keyof Page, value: string) => props.onChange({ ...page, [key]: value })
  return (
    <fieldset className="page-options" disabled={props.readOnly}>
      <legend>Page</legend>
      <div className="form-grid">
        <div className="field">
          <label htmlFor="page-size">Size</label>
          <select
            id="page-size"
            className="input"
            value={page.size}
            onChange={(e) => set('size', e.target.value)}
          >
            <option value="">Default (A4)</option>
            {PDF_PAGE_SIZES.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="page-orientation">Orientation</label>
          <select
            id="page-orientation"
            className="input"
            value={page.orientation}
            onChange={(e) => set('orientation', e.target.value)}
          >
            <option value="">Default (portrait)</option>
            {PDF_ORIENTATIONS.map((o) => (
              <option key={o}>{o}</option>
            ))}
          </select>
        </div>
        {SIDES.map((side) => (
          <div className="field" key={side}>
            <label htmlFor={`page-margin-${side}`}>Margin {side}</label>
            <input
              id={`page-margin-${side}`}
              className="input"
              placeholder="e.g. 10mm"
              value={page[side]}
              onChange={(e) => set(side, e.target.value)}
            />
          </div>
        ))}
      </div>
      {props.modified && <p className="field-hint">{TEMPLATES_CONSOLE_TEXT.pdfNeedsSave}</p>}
    </fieldset>
  )
}
