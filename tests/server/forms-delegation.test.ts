/**
 * Forms act for their owner (issue 35 finding 5, docs/operating/forms.md "Who a form acts for"), against the
 * real server: saving a form's target or notification needs what the form will do (`{target}:c`,
 * `messages/email:c`) and makes the saver its owner, a field no client can set; each submission is
 * refused, in words that show nothing internal, once the owner no longer holds `{target}/{id}:c` (or
 * the send right, or the API token they saved with); the notification is sent as the owner. A form
 * from before owners (none kept) acts for its last saver, or as the server when the server wrote it.
 */
import { describe, expect, it } from 'vitest'
import { MESSAGE_SENDER_PER_MINUTE } from '../../src/shared/messaging'
import { DELEGATION_TEXT, FORMS_TEXT } from '../../src/shared/texts'
import { suiteServer } from '../helpers/suite-server'

const server = suiteServer()
const fields = [{ name: 'name', label: 'Name', type: 'text', required: true }]
const form = (id: string, extra: Record<string, unknown> = {}) => ({
  _id: id,
  title: `Form ${id}`,
  target: 'data/payroll',
  fill: 'link',
  fields,
  ...extra,
})

let seq = 0
const nextId = () => `s-${Date.now().toString(36)}-${seq++}`
/** Logged in with no rights at all: a filler needs none, and is not held by the per-address limit. */
let filler: string | undefined
const fillerToken = async () => {
  filler ??= await server.userWith('filler', [])
  return filler
}
const submit = async (formId: string, id = nextId()) =>
  server.api(`/api/forms/${formId}/submissions`, {
    json: { _id: id, answers: { name: 'Eve' } },
    token: await fillerToken(),
  })
const setPermissions = (user: string, permissions: string[]) =>
  server.services.store.write(
    { op: 'patch', collection: 'groups', id: `g-${user}`, body: { permissions } },
    { user: null },
  )
const stored = async (id: string) => server.services.store.get('data/payroll', id)

describe('saving a form needs what it will do', () => {
  it('refuses a target the saver may not create in, naming the permission and the field', async () => {
    const mallory = await server.userWith('mallory', ['forms:crud'])
    const res = await server.api('/api/forms', { json: form('payroll-grab'), token: mallory })
    expect(res.status, res.text).toBe(403)
    expect(res.body).toMatchObject({
      error: 'forbidden',
      message: DELEGATION_TEXT.needs("send this form's answers to data/payroll", 'data/payroll:c'),
      permission: ['data/payroll:c'],
      field: 'target',
    })
    expect(await server.services.store.get('forms', 'payroll-grab')).toBeNull()
  })

  it('refuses a notification without the right POST /api/email needs', async () => {
    const nia = await server.userWith('nia', ['forms:crud', 'data/payroll:c'])
    const res = await server.api('/api/forms', {
      json: form('notify-out', { notify: { email: 'outside@evil.test' } }),
      token: nia,
    })
    expect(res.status, res.text).toBe(403)
    expect(res.body).toMatchObject({ permission: ['messages/email:c'], field: 'notify.email' })
    // Without the notification the same saver may make it, and is its owner whatever the body says.
    const ok = await server.api('/api/forms', {
      json: form('nia-form', { owner: 'admin', ownerToken: 'forged' }),
      token: nia,
    })
    expect(ok.status, ok.text).toBe(201)
    const doc = await server.services.store.get('forms', 'nia-form')
    expect(doc).toMatchObject({ owner: 'nia' })
    expect(doc).not.toHaveProperty('ownerToken')
  })

  it('checks every later change of target or notify, and nothing else', async () => {
    const editor = await server.userWith('editor', ['forms:crud'])
    const patch = (json: Record<string, unknown>) =>
      server.api('/api/forms/nia-form', { method: 'PATCH', json, token: editor })
    // A title change keeps the owner; a forged owner is dropped.
    const title = await patch({ title: 'Renamed', owner: 'editor' })
    expect(title.status, title.text).toBe(200)
    expect(await server.services.store.get('forms', 'nia-form')).toMatchObject({
      owner: 'nia',
      title: 'Renamed',
    })
    // Target and notify are the owner's to set.
    expect((await patch({ target: 'data/other' })).body).toMatchObject({ field: 'target' })
    expect((await patch({ notify: { email: 'x@evil.test' } })).status).toBe(403)
    // Someone who holds the rights takes the form over by changing them.
    const res = await server.api('/api/forms/nia-form', {
      method: 'PATCH',
      json: { notify: { email: 'boss@example.com' } },
      token: server.admin,
    })
    expect(res.status, res.text).toBe(200)
    const doc = await server.services.store.get('forms', 'nia-form')
    expect(doc).toMatchObject({ owner: 'admin' })
    expect(doc).not.toHaveProperty('ownerToken')
  })
})

describe('a submission acts for the owner, with their rights as they are now', () => {
  it('is refused once the owner loses the target, without leaking why to the filler', async () => {
    const olga = await server.userWith('olga', ['forms:crud', 'data/payroll:c'])
    expect((await server.api('/api/forms', { json: form('olga-form'), token: olga })).status).toBe(201)
    const first = nextId()
    expect((await submit('olga-form', first)).status).toBe(201)
    expect(await stored(first)).toMatchObject({ name: 'Eve', _form: 'olga-form' })

    await setPermissions('olga', ['forms:crud'])
    const id = nextId()
    const refused = await submit('olga-form', id)
    expect(refused.status, refused.text).toBe(403)
    expect(refused.body).toEqual({ error: 'forbidden', message: FORMS_TEXT.ownerLacks })
    expect(await stored(id)).toBeNull()
    // A block on one document path counts too (read per submission id).
    await setPermissions('olga', ['forms:crud', 'data/payroll:c', `data/payroll/${id}:n`])
    expect((await submit('olga-form', id)).status).toBe(403)
    expect((await submit('olga-form')).status).toBe(201)
  })

  it('sends the notification as the owner, and stops when the owner may no longer send', async () => {
    const pia = await server.userWith('pia', ['forms:crud', 'data/payroll:c', 'messages/email:c'])
    const saved = await server.api('/api/forms', {
      json: form('pia-form', { notify: { email: 'pia@example.com' } }),
      token: pia,
    })
    expect(saved.status, saved.text).toBe(201)
    expect((await submit('pia-form')).status).toBe(201)
    const mails = await server.services.store.list('messages', { filter: { to: 'pia@example.com' } })
    expect(mails.items.map((m) => m.sentBy)).toEqual(['pia'])

    await setPermissions('pia', ['forms:crud', 'data/payroll:c'])
    const id = nextId()
    expect((await submit('pia-form', id)).status).toBe(403)
    expect(await stored(id)).toBeNull()
  })

  it('stores the answers without the mail once the owner reached the send limit', async () => {
    const quinn = await server.userWith('quinn', ['forms:crud', 'data/payroll:c', 'messages/email:c'])
    const saved = await server.api('/api/forms', {
      json: form('quinn-form', { notify: { email: 'quinn@example.com' } }),
      token: quinn,
    })
    expect(saved.status, saved.text).toBe(201)
    // The owner's minute is used up (records as sends leave them; `sent`, so the queue leaves them be).
    const record = { channel: 'email', to: 'x@example.com', status: 'sent', sentBy: 'quinn' }
    await server.services.store.writeMany(
      Array.from({ length: MESSAGE_SENDER_PER_MINUTE }, () => ({
        op: 'create' as const,
        collection: 'messages',
        body: record,
      })),
      { user: null },
    )
    const id = nextId()
    expect((await submit('quinn-form', id)).status).toBe(201)
    expect(await stored(id)).toMatchObject({ name: 'Eve' })
    const mails = await server.services.store.list('messages', { filter: { to: 'quinn@example.com' } })
    expect(mails.total).toBe(0)
  })

  it('is refused once the API token the owner saved with is revoked', async () => {
    const rita = await server.userWith('rita', ['forms:crud', 'data/payroll:c', 'tokens:*'])
    const made = await server.api('/api/tokens', {
      json: { name: 'forms', permissions: ['forms:crud', 'data/payroll:c'] },
      token: rita,
    })
    expect(made.status, made.text).toBe(201)
    const { token, _id: tokenId } = made.body as { token: string; _id: string }
    expect((await server.api('/api/forms', { json: form('rita-form'), token })).status).toBe(201)
    expect(await server.services.store.get('forms', 'rita-form')).toMatchObject({
      owner: 'rita',
      ownerToken: tokenId,
    })
    expect((await submit('rita-form')).status).toBe(201)
    const revoked = await server.api(`/api/tokens/${tokenId}`, { method: 'DELETE', token: rita })
    expect(revoked.status, revoked.text).toBeLessThan(300)
    expect((await submit('rita-form')).status).toBe(403)
  })
})

describe('a form from before owners were kept', () => {
  it('acts as the server when the server wrote it, and for its last saver otherwise', async () => {
    const { store } = server.services
    const body = { ...form('legacy') } as Record<string, unknown>
    delete body._id
    await store.write({ op: 'create', collection: 'forms', id: 'legacy', body }, { user: null })
    expect((await submit('legacy')).status).toBe(201)
    // Last saved by someone who may not create in the target: refused until re-saved.
    await server.userWith('sam', ['forms:crud'])
    await store.write({ op: 'create', collection: 'forms', id: 'legacy-sam', body }, { user: 'sam' })
    expect((await submit('legacy-sam')).status).toBe(403)
    // Its next save by someone who holds the rights makes them the owner, and it fills again.
    const res = await server.api('/api/forms/legacy-sam', {
      method: 'PATCH',
      json: { title: 'Re-saved' },
      token: server.admin,
    })
    expect(res.status, res.text).toBe(200)
    expect(await store.get('forms', 'legacy-sam')).toMatchObject({ owner: 'admin' })
    expect((await submit('legacy-sam')).status).toBe(201)
  })
})
