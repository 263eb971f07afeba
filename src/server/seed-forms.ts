/**
 * The sample form and report of a first start (seed.ts), so Forms and Reports are not empty: a site
 * inspection form for the Staff group (one field of most types, a section heading and a field shown
 * only when the site failed) and a report of the sample contacts by city. Both are documents in the
 * shape the console's editors save (src/shared/forms.ts FormDoc, src/shared/reports.ts
 * ReportDefinition), checked by the same rules on the way in (a test holds them to it).
 *
 * The form's target collection gets the form's own JSON Schema (fullSchema: every field, the
 * conditional one as if/then), so the Database's schema editor opens on content (issue 36) and a
 * write to data/inspections from anywhere else is held to what the form asks.
 */
import { type FormDoc, fullSchema } from '../shared/forms'
import type { ReportDefinition } from '../shared/reports'
import { SCHEMAS_COLLECTION, schemaIdFor } from '../shared/schema-keys'
import type { Write } from './store/types'

export const SAMPLE_FORM: FormDoc = {
  title: 'Site inspection',
  description: 'One visit to one site: what was checked, and what needs fixing.',
  target: 'data/inspections',
  fill: 'group',
  group: 'staff',
  message: 'Thank you: the inspection is recorded.',
  fields: [
    { name: 'site', label: 'Site', type: 'text', required: true },
    { name: 'visited', label: 'Date of the visit', type: 'date', required: true },
    { name: 'inspector', label: 'Inspector e-mail', type: 'email' },
    { name: 'findings', label: 'Findings', type: 'section' },
    {
      name: 'areas',
      label: 'Areas checked',
      type: 'multi',
      options: ['Fire exits', 'Electrical', 'First aid', 'Signage'],
    },
    { name: 'score', label: 'Score (1–5)', type: 'number', min: 1, max: 5 },
    { name: 'passed', label: 'Passed', type: 'yesno', default: true },
    {
      name: 'actions',
      label: 'What must be fixed',
      type: 'textarea',
      required: true,
      showIf: { field: 'passed', equals: false },
    },
  ],
}

export const SAMPLE_REPORT: ReportDefinition = {
  title: 'Contacts by city',
  collection: 'data/contacts',
  filter: [],
  groupBy: ['city'],
  aggregates: [{ op: 'count' }, { op: 'avg', field: 'age' }],
  sort: { key: 'count', dir: 'desc' },
  view: 'bar',
}

export function sampleFormAndReport(): Write[] {
  return [
    { op: 'create', collection: 'forms', id: 'inspections', body: { ...SAMPLE_FORM } },
    {
      op: 'create',
      collection: SCHEMAS_COLLECTION,
      id: schemaIdFor(SAMPLE_FORM.target),
      body: { schema: fullSchema(SAMPLE_FORM) },
    },
    { op: 'create', collection: 'reports', id: 'contacts-by-city', body: { ...SAMPLE_REPORT } },
  ]
}
