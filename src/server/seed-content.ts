/**
 * The sample templates and action of a first start (issue 36.14), so Templates, Messages and Actions
 * open on something that works: one template of each sendable kind (e-mail, SMS, push, PDF) whose
 * sample data uses the fields a recipient has (`name`, `email`), and one read-only HTTP action.
 *
 * The action answers GET /api/actions/run/contacts-by-city with the sample contacts counted per city.
 * It is enabled because it only reads (`db.list`) and returns counts, never a contact, and it can be
 * run only with `actions/run/contacts-by-city:r` (the admins' `*:*` at first; no sample group holds
 * it). It runs as `admin`, who owns the sample data. Written past the modules' save checks (bootstrap),
 * so seed.test.ts holds each document to the module's own validation.
 */
import type { ActionDoc } from '../shared/actions'
import type { TemplateDoc } from '../shared/templates'
import type { Write } from './store/types'

const RECIPIENT = { name: 'Ada Novak', email: 'ada@example.com' }

export const SAMPLE_TEMPLATES: TemplateDoc[] = [
  {
    _id: 'welcome-email',
    kind: 'email',
    name: 'Welcome e-mail',
    description: 'Sample: greets a new customer by name',
    subject: 'Welcome, {{ name }}',
    html: '<p>Hello {{ name }},</p>\n<p>Thank you for joining us. Your account is {{ email }}.</p>',
    text: 'Hello {{ name }},\n\nThank you for joining us. Your account is {{ email }}.',
    sample: RECIPIENT,
  },
  {
    _id: 'order-sms',
    kind: 'sms',
    name: 'Order shipped (SMS)',
    description: 'Sample: a short text message',
    text: 'Hi {{ name }}, your order {{ order | default: "1042" }} is on its way.',
    sample: { ...RECIPIENT, order: '1042' },
  },
  {
    _id: 'report-push',
    kind: 'push',
    name: 'Report ready (push)',
    description: 'Sample: a push notification with a link into the console',
    title: 'Your report is ready',
    body: '{{ name }}, "{{ report | default: "Contacts by city" }}" has new figures.',
    link: '/ui/reports',
    sample: { ...RECIPIENT, report: 'Contacts by city' },
  },
  {
    _id: 'invoice-pdf',
    kind: 'pdf',
    name: 'Invoice (PDF)',
    description: 'Sample: a one-page invoice from a list of lines',
    html: [
      '<h1>Invoice {{ number }}</h1>',
      '<p>For {{ name }} &lt;{{ email }}&gt;</p>',
      '<table>',
      '  <tr><th>Item</th><th>Amount</th></tr>',
      '  {% for line in lines %}<tr><td>{{ line.item }}</td><td>{{ line.amount }}</td></tr>{% endfor %}',
      '</table>',
    ].join('\n'),
    footer: '<p style="font-size: 9px">Momentum sample invoice</p>',
    page: { size: 'A4', orientation: 'portrait' },
    sample: {
      ...RECIPIENT,
      number: 'INV-0001',
      lines: [
        { item: 'Team plan', amount: '€29.00' },
        { item: 'Starter plan', amount: '€9.00' },
      ],
    },
  },
]

export const SAMPLE_ACTION: ActionDoc = {
  _id: 'contacts-by-city',
  name: 'Contacts by city',
  description:
    'Sample: GET /api/actions/run/contacts-by-city answers how many contacts live in each city (read-only)',
  enabled: true,
  trigger: { type: 'GET' },
  runAs: 'admin',
  code: [
    '// Read-only: counts the sample contacts per city and returns the counts, never a contact.',
    "const contacts = await db.list('contacts', { limit: 1000 })",
    'const byCity = {}',
    'for (const c of contacts) byCity[c.city] = (byCity[c.city] ?? 0) + 1',
    "log(contacts.length + ' contacts in ' + Object.keys(byCity).length + ' cities')",
    'return { body: { total: contacts.length, byCity } }',
  ].join('\n'),
}

export function sampleContent(): Write[] {
  const { _id: actionId, ...action } = SAMPLE_ACTION
  return [
    ...SAMPLE_TEMPLATES.map(
      ({ _id, ...body }): Write => ({ op: 'create', collection: 'templates', id: _id, body }),
    ),
    { op: 'create', collection: 'actions', id: actionId, body: { ...action } },
  ]
}
