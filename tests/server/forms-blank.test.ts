/**
 * Issue 36 #5: an empty or whitespace-only string is no answer. A required field sent as "" or "   "
 * is refused with the same "Required" as one left out, every such field at once, and an optional
 * field sent blank is not stored as "".
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { FORMS_TEXT, SCHEMA_TEXT } from '../../src/shared/texts'
import { suiteServer } from '../helpers/suite-server'

const form = {
  _id: 'blank-check',
  title: 'Blank check',
  target: 'data/blank-answers',
  fill: 'link',
  fields: [
    { name: 'site', label: 'Site', type: 'text', required: true },
    { name: 'contact', label: 'Contact', type: 'email', required: true },
    { name: 'note', label: 'Note', type: 'textarea' },
  ],
}

let seq = 0
const server = suiteServer()
beforeAll(async () => {
  const res = await server.api('/api/forms', { json: form, token: server.admin })
  expect(res.status, res.text).toBe(201)
})

const submit = (answers: Record<string, unknown>) => {
  const id = `blank-${Date.now().toString(36)}-${seq++}`
  return { id, res: server.api(`/api/forms/${form._id}/submissions`, { json: { _id: id, answers } }) }
}

describe('blank answers', () => {
  it('refuses "" and whitespace-only in required fields with "Required", every field at once', async () => {
    const { res } = submit({ site: '', contact: '   \n' })
    const answer = await res
    expect(answer.status).toBe(400)
    expect(answer.body).toMatchObject({
      message: FORMS_TEXT.answersInvalid(2),
      fields: { site: SCHEMA_TEXT.required, contact: SCHEMA_TEXT.required },
    })
  })

  it('stores a blank optional answer as no answer', async () => {
    const { id, res } = submit({ site: 'North yard', contact: 'lee@example.com', note: '  ' })
    expect((await res).status).toBe(201)
    const doc = await server.services.store.get('data/blank-answers', id)
    expect(doc).toMatchObject({ site: 'North yard', contact: 'lee@example.com' })
    expect(doc).not.toHaveProperty('note')
  })
})
