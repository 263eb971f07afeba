/**
 * Delegated authority of actions (issue 35 findings 1 and 4, docs/operating/actions.md "Permissions") against the
 * real server: an EVENT trigger may watch only what its run-as user can read (refused on save, and each
 * change passed at run time only when that user may read that document now, `n` blocks included), and
 * an action that runs as someone else needs what changing that account needs, on save and on every
 * later edit of its code, trigger or runAs.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { tickActions } from '../../src/server/actions/schedule'
import { ACTION_TEXT, DELEGATION_TEXT } from '../../src/shared/texts'
import { suiteServer } from '../helpers/suite-server'

const server = suiteServer()
beforeAll(() => {
  server.services.actionScheduler.stop()
})

interface Refusal {
  error: string
  message: string
  permission: string | string[]
  field: string
}

const save = (doc: Record<string, unknown>, token: string) => server.api('/api/actions', { json: doc, token })
const patch = (id: string, body: Record<string, unknown>, token: string) =>
  server.api(`/api/actions/${id}`, { method: 'PATCH', json: body, token })

function expectRefused(
  res: { status: number; body: unknown; text: string },
  field: string,
  permission: string[],
) {
  expect(res.status, res.text).toBe(403)
  const body = res.body as Refusal
  expect(body).toMatchObject({ error: 'forbidden', field })
  // One permission may come as a string: the console reads both (src/sync/replay.ts refusalOf).
  expect(typeof body.permission === 'string' ? [body.permission] : body.permission).toEqual(permission)
  return body
}

const event = (collection: string) => ({ type: 'EVENT', collection, operations: ['create'] })

async function runsOf(id: string) {
  const res = await server.api(`/api/actions/${id}/runs`, { token: server.admin })
  return (res.body as Array<{ result: unknown }>).slice().reverse()
}

describe('EVENT actions read only what their run-as user can (finding 1)', () => {
  it('refuses an EVENT trigger on a collection the saver cannot read, naming the field', async () => {
    const crud = await server.userWith('ev-crud', ['actions:crud'])
    const code = 'return input.event.doc'
    const contacts = expectRefused(
      await save({ name: 'leak', trigger: event('contacts'), code }, crud),
      'trigger.collection',
      ['data/contacts:r'],
    )
    expect(contacts.message).toBe(DELEGATION_TEXT.needs(ACTION_TEXT.watchWhat('contacts'), 'data/contacts:r'))
    // The server's own log channel, with its security events, likewise.
    expectRefused(
      await save({ name: 'leak', trigger: event('logs/server'), code }, crud),
      'trigger.collection',
      ['logs/server:r'],
    )
    // A reader of the collection may watch it; moving the trigger later is checked again.
    const reader = await server.userWith('ev-reader', ['actions:crud', 'data/orders:r'])
    const ok = await save({ _id: 'ev-orders', name: 'orders', trigger: event('orders'), code }, reader)
    expect(ok.status, ok.text).toBe(201)
    expectRefused(await patch('ev-orders', { trigger: event('contacts') }, reader), 'trigger.collection', [
      'data/contacts:r',
    ])
    expect((await patch('ev-orders', { description: 'still orders' }, reader)).status).toBe(200)
  })

  it('refuses an EVENT trigger run as a user who cannot read it, even when the saver can', async () => {
    await server.userWith('ev-helper', ['data/orders:r'])
    const res = await save(
      { name: 'helper contacts', trigger: event('contacts'), code: 'return 1', runAs: 'ev-helper' },
      server.admin,
    )
    const refusal = expectRefused(res, 'trigger.collection', ['data/contacts:r'])
    expect(refusal.message).toBe(ACTION_TEXT.runAsCannotRead('ev-helper', 'data/contacts:r'))
    const fine = await save(
      { name: 'helper orders', trigger: event('orders'), code: 'return 1', runAs: 'ev-helper' },
      server.admin,
    )
    expect(fine.status, fine.text).toBe(201)
  })

  it('passes a change only when the run-as user may read that document now; the rest leave no run', async () => {
    const owner = await server.userWith('ev-notes', ['actions:crud', 'data/notes:r', 'data/notes/secret:n'])
    const saved = await save(
      {
        _id: 'ev-notes-watch',
        name: 'notes',
        trigger: { type: 'EVENT', collection: 'notes', operations: ['create', 'update', 'delete'] },
        code: 'return input.event.doc',
      },
      owner,
    )
    expect(saved.status, saved.text).toBe(201)
    await tickActions(server.services, new Date())
    for (const [id, text] of [
      ['open', 'for everyone'],
      ['secret', 'salaries'],
    ])
      expect(
        (await server.api('/api/data/notes', { json: { _id: id, text }, token: server.admin })).status,
      ).toBe(201)
    await server.api('/api/data/notes/secret', { method: 'DELETE', token: server.admin })
    const last = await server.services.store.headSeq()
    await tickActions(server.services, new Date())
    const runs = await runsOf('ev-notes-watch')
    expect(runs.map((r) => (r.result as { _id: string })._id)).toEqual(['open'])
    expect(JSON.stringify(runs)).not.toContain('salaries')
    // Skipped changes still move the cursor: they are never looked at again.
    const state = await server.services.store.get('_action_state', 'ev-notes-watch')
    expect(state?.cursor).toBeGreaterThanOrEqual(last)

    // The owner loses the right: the next change is not passed, though the action was saved when it held.
    await server.services.store.write(
      { op: 'patch', collection: 'groups', id: 'g-ev-notes', body: { permissions: ['actions:crud'] } },
      { user: null },
    )
    await server.api('/api/data/notes', {
      json: { _id: 'later', text: 'after the change' },
      token: server.admin,
    })
    await tickActions(server.services, new Date())
    expect(await runsOf('ev-notes-watch')).toHaveLength(1)
  })
})

describe('runAs needs what changing that account needs (finding 4)', () => {
  it('refuses to lend a greater user’s rights, with the permission it needs next to runAs', async () => {
    const asAdmin = { name: 'borrow', trigger: { type: 'GET' }, code: 'return 1', runAs: 'admin' }
    const reader = await server.userWith('ra-r', ['users:r', 'actions:crud'])
    const first = expectRefused(await save(asAdmin, reader), 'runAs', ['users/admin:u'])
    expect(first.message).toBe(DELEGATION_TEXT.needs(ACTION_TEXT.actAsWhat('admin'), 'users/admin:u'))
    // The editor: users:ru is not enough, as admin holds *:*, which this editor does not.
    const ru = await server.userWith('ra-ru', ['users:ru', 'actions:crud'])
    const second = expectRefused(await save(asAdmin, ru), 'runAs', ['users:cd', '*:crud'])
    expect(second.message).toBe(DELEGATION_TEXT.actAs('admin', ['users:cd', '*:crud']))
    // Nobody learns which ids exist without the right to change them.
    expectRefused(await save({ ...asAdmin, runAs: 'nobody-at-all' }, reader), 'runAs', [
      'users/nobody-at-all:u',
    ])
    const unknown = await save({ ...asAdmin, runAs: 'nobody-at-all' }, server.admin)
    expect(unknown.status).toBe(400)
    expect((unknown.body as { message: string }).message).toBe(ACTION_TEXT.runAsUnknown('nobody-at-all'))
  })

  it('lets a manager who holds all of a user’s rights act as them; others may edit only what lends nothing', async () => {
    await server.userWith('ra-helper', ['data/tasks:r'])
    const manager = await server.userWith('ra-manager', ['users:u', 'actions:crud', 'data/tasks:r'])
    const made = await save(
      { _id: 'ra-helpers', name: 'helpers', trigger: { type: 'GET' }, code: 'return 1', runAs: 'ra-helper' },
      manager,
    )
    expect(made.status, made.text).toBe(201)
    const plain = await server.userWith('ra-plain', ['actions:crud'])
    for (const body of [{ code: 'return 2' }, { trigger: { type: 'POST' } }, { runAs: 'ra-helper' }])
      expectRefused(await patch('ra-helpers', body, plain), 'runAs', ['users/ra-helper:u'])
    for (const body of [{ description: 'renamed' }, { enabled: false }, { timeLimitMs: 500 }])
      expect((await patch('ra-helpers', body, plain)).status, JSON.stringify(body)).toBe(200)
    expect((await patch('ra-helpers', { code: 'return 3' }, manager)).status).toBe(200)
    // Taking the action over makes it run as the editor: their own rights, nothing borrowed.
    const taken = await patch('ra-helpers', { code: 'return 4', runAs: 'ra-plain' }, plain)
    expect(taken.status, taken.text).toBe(200)
    expect(taken.body).toMatchObject({ runAs: 'ra-plain', code: 'return 4' })
  })

  it('keeps the API token an action was saved with when someone else edits only its name', async () => {
    const made = await server.api('/api/tokens', {
      json: { name: 'narrow', permissions: ['actions:*'] },
      token: server.admin,
    })
    const { token, _id: tokenId } = made.body as { token: string; _id: string }
    const saved = await save(
      { _id: 'ra-token', name: 'token', trigger: { type: 'GET' }, code: 'return 1' },
      token,
    )
    expect(saved.body).toMatchObject({ runAs: 'admin', runAsToken: tokenId })
    const plain = await server.login('ra-plain', 'ra-plain-pw')
    const renamed = await patch('ra-token', { name: 'renamed' }, plain)
    expect(renamed.status, renamed.text).toBe(200)
    // Clearing it would widen the action from the token's scope to all of admin's rights.
    expect(renamed.body).toMatchObject({ runAsToken: tokenId })
  })
})
