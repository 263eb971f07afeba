/**
 * Forms (issue 17) against the real server: a form document is checked whole on save; a link form is
 * filled logged out and limited per address (429 with Retry-After and a clear message) without
 * exposing the target collection or other submissions; a group form needs a login and membership;
 * answers are checked against the form (conditional fields included) and arrive exactly once.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { FORM_PUBLIC_SUBMIT_MAX, FORM_SUBMISSION_MAX_BYTES } from '../../src/shared/forms'
import { FORMS_TEXT, SCHEMA_TEXT } from '../../src/shared/texts'
import { suiteServer } from '../helpers/suite-server'

const fields = [
  { name: 'site', label: 'Site', type: 'text', required: true },
  { name: 'count', label: 'Count', type: 'number', min: 0, max: 10 },
  { name: 'damage', label: 'Damage?', type: 'yesno' },
  {
    name: 'details',
    label: 'Details',
    type: 'textarea',
    required: true,
    showIf: { field: 'damage', equals: true },
  },
]
const linkForm = {
  _id: 'survey',
  title: 'Survey',
  target: 'data/answers',
  fill: 'link',
  fields,
  message: 'Thanks!',
}
const groupForm = {
  _id: 'inspect',
  title: 'Inspection',
  target: 'data/inspections',
  fill: 'group',
  group: 'field',
  fields,
}

let seq = 0
const nextId = () => `sub-${Date.now().toString(36)}-${seq++}`

const server = suiteServer()
beforeAll(async () => {
  for (const form of [linkForm, groupForm]) {
    const res = await server.api('/api/forms', { json: form, token: server.admin })
    expect(res.status, res.text).toBe(201)
  }
})

/** A logged-out submission from one simulated client address (the server does not trust forwarding headers, so all share loopback). */
const submit = (
  form: string,
  answers: Record<string, unknown>,
  init: { token?: string; id?: string; key?: string } = {},
) =>
  server.api(`/api/forms/${form}/submissions`, {
    json: { _id: init.id ?? nextId(), answers },
    token: init.token,
    headers: init.key ? { 'idempotency-key': init.key } : {},
  })

describe('form documents', () => {
  it('refuses a form that cannot be filled, with the reason', async () => {
    const bad = [
      [{ ...linkForm, _id: 'f1', title: '' }, FORMS_TEXT.titleMissing],
      [{ ...linkForm, _id: 'f2', target: 'users' }, FORMS_TEXT.targetInvalid],
      [{ ...linkForm, _id: 'f3', fill: 'group' }, FORMS_TEXT.groupMissing],
      [{ ...linkForm, _id: 'f4', fields: [fields[0], fields[0]] }, FORMS_TEXT.nameTaken('site')],
      [
        { ...linkForm, _id: 'f5', fields: [{ ...fields[3], showIf: { field: 'later', equals: 1 } }] },
        FORMS_TEXT.conditionInvalid('Details'),
      ],
      [
        { ...linkForm, _id: 'f6', fields: [{ name: 'c', label: 'C', type: 'choice' }] },
        FORMS_TEXT.optionsMissing('C'),
      ],
    ] as const
    for (const [doc, message] of bad) {
      const res = await server.api('/api/forms', { json: doc, token: server.admin })
      expect(res.status, JSON.stringify(doc)).toBe(400)
      expect((res.body as { message: string }).message).toBe(message)
    }
    // A patch is checked as the whole document it produces.
    const patch = await server.api('/api/forms/survey', {
      method: 'PATCH',
      json: { target: 'nope' },
      token: server.admin,
    })
    expect(patch.status).toBe(400)
  })
})

describe('a link form, logged out', () => {
  it('shows the form without its target or notification address', async () => {
    const res = await server.api('/api/forms/survey/fill')
    expect(res.status, res.text).toBe(200)
    const body = res.body as Record<string, unknown>
    expect(body.title).toBe('Survey')
    expect(body.fields).toHaveLength(4)
    expect(body).not.toHaveProperty('target')
    expect(body).not.toHaveProperty('notify')
    // The form document itself and the collection stay private.
    expect((await server.api('/api/forms/survey')).status).toBe(401)
    expect((await server.api('/api/data/answers')).status).toBe(401)
  })

  it('stores valid answers in the target collection and answers only the id and message', async () => {
    const id = nextId()
    const res = await submit('survey', { site: 'North', count: 3, damage: false }, { id })
    expect(res.status, res.text).toBe(201)
    expect(res.body).toEqual({ _id: id, message: 'Thanks!' })
    const stored = await server.api(`/api/data/answers/${id}`, { token: server.admin })
    expect(stored.body).toMatchObject({
      site: 'North',
      count: 3,
      damage: false,
      _form: 'survey',
      _updatedBy: null,
    })
  })

  it('checks answers against the form: one message per field, conditional fields only when shown', async () => {
    const res = await submit('survey', { count: 11, damage: true, extra: 'x' })
    expect(res.status).toBe(400)
    expect((res.body as { fields: Record<string, string> }).fields).toEqual({
      site: SCHEMA_TEXT.required,
      count: SCHEMA_TEXT.maximum(10),
      details: SCHEMA_TEXT.required,
      extra: SCHEMA_TEXT.notAllowed,
    })
    // Details is hidden when there is no damage: not required, and a stale value is dropped, not stored.
    const id = nextId()
    const ok = await submit('survey', { site: 'S', damage: false, details: 'stale' }, { id })
    expect(ok.status, ok.text).toBe(201)
    const stored = (await server.api(`/api/data/answers/${id}`, { token: server.admin })).body as Record<
      string,
      unknown
    >
    expect(stored).not.toHaveProperty('details')
  })

  it('stores a submission once: a replayed key and a second send of the id write nothing new', async () => {
    const id = nextId()
    const first = await submit('survey', { site: 'Once' }, { id, key: `k-${id}` })
    expect(first.status).toBe(201)
    const replay = await submit('survey', { site: 'Once' }, { id, key: `k-${id}` })
    expect(replay.status).toBe(201)
    expect(replay.headers.get('idempotent-replayed')).toBe('true')
    const again = await submit('survey', { site: 'Once' }, { id, key: `other-${id}` })
    expect(again.status).toBe(409)
    // The conflict shows nothing of the stored document.
    expect(again.body).not.toHaveProperty('current')
    const list = await server.api('/api/data/answers?limit=1000', { token: server.admin })
    expect((list.body as { site: string }[]).filter((d) => d.site === 'Once')).toHaveLength(1)
  })

  it('refuses answers larger than the limit', async () => {
    const res = await submit('survey', { site: 'x'.repeat(FORM_SUBMISSION_MAX_BYTES) })
    expect(res.status).toBe(413)
  })
})

describe('a group form', () => {
  it('needs a login, then membership of the group or the right to edit the form', async () => {
    const out = await server.api('/api/forms/inspect/fill')
    expect(out.status).toBe(401)
    expect((out.body as { message: string }).message).toBe(FORMS_TEXT.loginToFill)
    expect((await submit('inspect', { site: 'x' })).status).toBe(401)

    const stranger = await server.userWith('stranger', ['data/inspections:r'])
    const denied = await submit('inspect', { site: 'x' }, { token: stranger })
    expect(denied.status).toBe(403)
    expect((denied.body as { message: string }).message).toBe(FORMS_TEXT.notAllowed)

    // A member of `field` with no right on the collection or the forms module.
    await server.services.store.write(
      { op: 'put', collection: 'groups', id: 'field', body: { name: 'Field staff', permissions: [] } },
      { user: null },
    )
    const member = await server.userWith('member', null)
    await server.services.store.write(
      { op: 'patch', collection: 'users', id: 'member', body: { groups: ['field'] } },
      { user: null },
    )
    expect((await server.api('/api/forms/inspect/fill', { token: member })).status).toBe(200)
    const id = nextId()
    const sent = await submit('inspect', { site: 'Depot' }, { token: member, id })
    expect(sent.status, sent.text).toBe(201)
    // The filler never reads the collection through the form.
    expect((await server.api(`/api/data/inspections/${id}`, { token: member })).status).toBe(403)
    const stored = await server.api(`/api/data/inspections/${id}`, { token: server.admin })
    expect(stored.body).toMatchObject({ site: 'Depot', _updatedBy: 'member', _form: 'inspect' })
  })

  it('sends the notification through Messages with the submission', async () => {
    const patch = await server.api('/api/forms/inspect', {
      method: 'PATCH',
      json: { notify: { email: 'boss@example.com' } },
      token: server.admin,
    })
    expect(patch.status, patch.text).toBe(200)
    expect((await server.api('/api/forms/inspect/fill', { token: server.admin })).body).not.toHaveProperty(
      'notify',
    )
    const id = nextId()
    expect((await submit('inspect', { site: 'Notified' }, { token: server.admin, id, key: id })).status).toBe(
      201,
    )
    expect((await submit('inspect', { site: 'Notified' }, { token: server.admin, id, key: id })).status).toBe(
      201,
    )
    const messages = await server.services.store.list('messages', { limit: 100 })
    const mine = messages.items.filter((m) => m.to === 'boss@example.com')
    expect(mine).toHaveLength(1)
    expect(JSON.stringify(mine[0]?.content)).toContain('Notified')
  })
})

describe("the target collection's schema", () => {
  it('judges a submission too, with one message per field', async () => {
    const schema = { type: 'object', properties: { site: { type: 'string', minLength: 3 } } }
    const saved = await server.api('/api/schemas', {
      json: { _id: 'data.inspections', schema },
      token: server.admin,
    })
    expect(saved.status, saved.text).toBe(201)
    const res = await submit('inspect', { site: 'ab' }, { token: server.admin })
    expect(res.status).toBe(400)
    expect((res.body as { fields: Record<string, string> }).fields).toEqual({
      site: SCHEMA_TEXT.minLength(3),
    })
  })
})

// Last: it uses up the loopback address's window for the rest of the file.
describe('the per-address limit', () => {
  it('limits logged-out submissions per address with 429, Retry-After and a clear message', async () => {
    // Earlier tests of this file used some of the window; fill the rest.
    let res = await submit('survey', { site: 'flood' })
    for (let i = 0; i < FORM_PUBLIC_SUBMIT_MAX && res.status !== 429; i++)
      res = await submit('survey', { site: 'flood' })
    expect(res.status).toBe(429)
    expect((res.body as { message: string }).message).toBe(FORMS_TEXT.tooMany)
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
    const flood = await server.api('/api/data/answers?limit=1000', { token: server.admin })
    expect((flood.body as { site: string }[]).filter((d) => d.site === 'flood').length).toBeLessThanOrEqual(
      FORM_PUBLIC_SUBMIT_MAX,
    )
    // A logged-in filler is not held by the address's limit.
    const user = await server.userWith('filler', [])
    expect((await submit('survey', { site: 'member' }, { token: user })).status).toBe(201)
  })
})
