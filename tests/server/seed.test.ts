/**
 * The sample data of a first start beyond users and contacts. The ledger (src/server/seed-payments.ts):
 * transactions in every status, each in the shape a real checkout stores (the same fields as one paid
 * through the TEST provider here), counted in its code's uses, and refundable like any. The form and
 * report (src/server/seed-forms.ts): written past the modules' checks at bootstrap, so held to those
 * same rules here, and usable — a Staff member fills the form, the report counts every contact.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkSchema } from '../../src/server/schemas/ajv-engine'
import { SAMPLE_CONTACTS } from '../../src/server/seed'
import { SAMPLE_ACTION, SAMPLE_TEMPLATES } from '../../src/server/seed-content'
import { SAMPLE_FILES, SAMPLE_FOLDER } from '../../src/server/seed-files'
import { SAMPLE_FORM, SAMPLE_REPORT } from '../../src/server/seed-forms'
import { actionError } from '../../src/shared/actions'
import { formError, fullSchema } from '../../src/shared/forms'
import { TEST_CARDS, TRANSACTION_STATUSES } from '../../src/shared/payments'
import { parseReport } from '../../src/shared/reports'
import { TEMPLATE_KINDS, templateError } from '../../src/shared/templates'
import { startTestServer, type TestServer } from '../helpers/server'
import { suiteServer } from '../helpers/suite-server'

type Tx = Record<string, unknown> & { _id: string; status: string; total: number; paid: number }

describe('the sample data set', () => {
  const server = suiteServer({ seed: 'sample' })

  const list = async () =>
    (await server.api('/api/transactions?limit=100', { token: server.admin })).body as Tx[]

  it('cover every status, with the fields a real checkout stores', async () => {
    const samples = (await list()).filter((t) => t._id.startsWith('sample-tx-'))
    expect(new Set(samples.map((t) => t.status))).toEqual(new Set(TRANSACTION_STATUSES))

    const init = await server.api('/api/transactions/init/starter', {
      json: { customer: { email: 'x@example.com' } },
    })
    expect(init.status, init.text).toBe(201)
    const c = init.body as { token: string; transaction: { _id: string } }
    const paid = await server.api(`/api/transactions/checkout/${c.transaction._id}/pay`, {
      json: { card: TEST_CARDS.success },
      headers: { 'x-checkout-token': c.token },
    })
    expect(paid.status, paid.text).toBe(200)
    const real = (await server.api(`/api/transactions/${c.transaction._id}`, { token: server.admin }))
      .body as Tx
    const fields = (t: Tx) => Object.keys(t).sort()
    for (const sample of samples) expect(fields(sample), sample._id).toEqual(fields(real))
    for (const sample of samples.filter((t) => t.status === 'paid')) expect(sample.paid).toBe(sample.total)
  })

  it('count in their discount code’s uses', async () => {
    const withCode = (await list()).filter(
      (t) => (t.discount as { code?: string } | null)?.code === 'WELCOME10',
    )
    const code = (await server.api('/api/discounts/WELCOME10', { token: server.admin })).body as {
      uses: number
    }
    expect(code.uses).toBe(withCode.length)
  })

  it('can be refunded like any paid checkout', async () => {
    const sample = (await list()).find((t) => t._id.startsWith('sample-tx-') && t.status === 'paid')!
    const res = await server.api(`/api/transactions/${sample._id}?amount=100`, {
      method: 'DELETE',
      token: server.admin,
    })
    expect(res.status, res.text).toBe(200)
    expect(res.body).toMatchObject({ status: 'partially_refunded', refunded: 100, paid: sample.paid })
  })

  it('has a form the forms module accepts, that a Staff member can fill', async () => {
    expect(formError({ ...SAMPLE_FORM })).toBeNull()
    const listed = (await server.api('/api/forms', { token: server.admin })).body as Array<{ _id: string }>
    expect(listed.map((f) => f._id)).toContain('inspections')
    const alice = await server.login('alice', 'alice-password')
    expect((await server.api('/api/forms/inspections/fill', { token: alice })).status).toBe(200)
    const answers = {
      site: 'Depot 4',
      visited: '2026-11-20',
      passed: false,
      actions: 'Replace the exit sign',
    }
    const sent = await server.api('/api/forms/inspections/submissions', {
      json: { _id: 'sample-visit-1', answers },
      token: alice,
    })
    expect(sent.status, sent.text).toBe(201)
    const stored = await server.api('/api/data/inspections/sample-visit-1', { token: server.admin })
    expect(stored.body).toMatchObject(answers)
  })

  it('gives the form’s collection the form’s schema, which the server holds writes to (issue 36)', async () => {
    const saved = await server.api('/api/schemas/data.inspections', { token: server.admin })
    expect(saved.status, saved.text).toBe(200)
    const schema = (saved.body as { schema: Record<string, unknown> }).schema
    expect(schema).toEqual(fullSchema(SAMPLE_FORM))
    expect(checkSchema(schema)).toBeNull()
    // A write the form would not take is refused with the form's rules, per field.
    const bad = await server.api('/api/data/inspections', {
      json: { _id: 'not-a-visit', site: 'Depot 9', score: 9 },
      token: server.admin,
    })
    expect(bad.status, bad.text).toBe(400)
    expect((bad.body as { fields: Record<string, string> }).fields).toMatchObject({
      visited: 'Required',
      score: 'Must be at most 5',
    })
  })

  it('has a report the reports module accepts, over every sample contact', async () => {
    expect(parseReport(SAMPLE_REPORT).ok).toBe(true)
    const saved = (await server.api('/api/reports/contacts-by-city', { token: server.admin })).body
    expect(saved).toMatchObject(SAMPLE_REPORT)
    const run = await server.api('/api/reports/run', { json: SAMPLE_REPORT, token: server.admin })
    expect(run.status, run.text).toBe(200)
    expect((run.body as { matched: number }).matched).toBe(SAMPLE_CONTACTS)
  })

  it('has a template of each sendable kind, each valid and rendering its sample (issue 36.14)', async () => {
    const listed = (await server.api('/api/templates', { token: server.admin })).body as Array<{
      _id: string
      kind: string
    }>
    const kinds = new Set(listed.map((t) => t.kind))
    for (const kind of ['email', 'sms', 'push', 'pdf']) expect(kinds, kind).toContain(kind)
    for (const t of SAMPLE_TEMPLATES) {
      expect(TEMPLATE_KINDS).toContain(t.kind)
      expect(templateError({ ...t }), t._id).toBeNull()
      const rendered = await server.api(`/api/templates/${t._id}/render`, { json: {}, token: server.admin })
      expect(rendered.status, rendered.text).toBe(200)
      expect(rendered.text).toContain('Ada Novak')
    }
  })

  it('has a read-only action that counts the contacts per city, for admins only', async () => {
    expect(actionError({ ...SAMPLE_ACTION })).toBeNull()
    const run = await server.api('/api/actions/run/contacts-by-city', { token: server.admin })
    expect(run.status, run.text).toBe(200)
    const body = run.body as { total: number; byCity: Record<string, number> }
    expect(body.total).toBe(SAMPLE_CONTACTS)
    expect(Object.values(body.byCity).reduce((a, b) => a + b, 0)).toBe(SAMPLE_CONTACTS)
    const bob = await server.login('bob', 'bob-password')
    expect((await server.api('/api/actions/run/contacts-by-city', { token: bob })).status).toBe(403)
  })

  it('has a few Storage files, made through the blob store and listed like uploads', async () => {
    const folder = await server.api(`/api/storage/${SAMPLE_FOLDER}`, { token: server.admin })
    expect(folder.status, folder.text).toBe(200)
    const names = (folder.body as Array<{ name: string; size: number }>).map((e) => e.name).sort()
    expect(names).toEqual(SAMPLE_FILES.map((f) => f.name).sort())
    const png = await fetch(`${server.url}/api/storage/${SAMPLE_FOLDER}/gradient.png`, {
      headers: { authorization: `Bearer ${server.admin}` },
    })
    expect(png.status).toBe(200)
    expect(png.headers.get('content-type')).toBe('image/png')
    const bytes = Buffer.from(await png.arrayBuffer())
    expect(bytes.subarray(1, 4).toString('ascii')).toBe('PNG')
    // The mirror's documents are there too, so other consoles list the files.
    const meta = await server.api(`/api/sync?cursor=0&limit=1000`, { token: server.admin })
    expect(meta.text).toContain(`${SAMPLE_FOLDER}/README.txt`)
  })
})

describe('MOMENTUM_SEED=none', () => {
  let empty: TestServer
  beforeAll(async () => {
    empty = await startTestServer({ seed: 'none' })
  })
  afterAll(async () => {
    await empty?.close()
  })

  it('starts with no templates, actions or files', async () => {
    const admin = await empty.login()
    expect((await empty.api('/api/templates', { token: admin })).body).toEqual([])
    expect((await empty.api('/api/actions', { token: admin })).body).toEqual([])
    expect((await empty.api(`/api/storage/${SAMPLE_FOLDER}`, { token: admin })).status).toBe(404)
  })
})
