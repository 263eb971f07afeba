import { describe, expect, it } from 'vitest'
import { templateError } from '../../../shared/templates'
import { draftOf, formOf, patchOf, starterOf } from './template-form'

describe('template form', () => {
  it('every kind starts valid', () => {
    for (const kind of ['email', 'sms', 'push', 'pdf', 'layout', 'partial'] as const)
      expect(templateError(starterOf(kind, 'x'))).toBeNull()
  })

  it('patches only what changed, and a removed sample key is null (merge patch)', () => {
    const doc = { kind: 'email', subject: 'Hi', html: '<p>x</p>', sample: { name: 'Ada', team: 'M' } }
    const base = formOf(doc, 'email')
    const form = { ...base, sample: '{"name": "Grace"}', parts: { ...base.parts, html: '' } }
    expect(patchOf(base, form, 'email')).toEqual({ html: null, sample: { name: 'Grace', team: null } })
  })

  it('builds pdf page options from the form and leaves empty parts out of the draft', () => {
    const base = formOf({ kind: 'pdf', html: '<h1>x</h1>' }, 'pdf')
    const form = { ...base, page: { ...base.page, size: 'Letter', top: '10mm' } }
    expect(draftOf(form, 'pdf')).toEqual({
      kind: 'pdf',
      html: '<h1>x</h1>',
      sample: {},
      page: { size: 'Letter', margin: { top: '10mm' } },
    })
  })
})
