/**
 * The websocket /api/socket against the real server: the connect handshake, ping/pong, topic
 * subscriptions and hub.publish, and the session checks. The streaming pull has its own suite
 * (socket-sync.test.ts).
 */
import { decodeJwt } from 'jose'
import { describe, expect, it, vi } from 'vitest'
import type { SyncChange } from '../../src/shared/sync-protocol'
import { SERVER_TEXT, SYNC_TEXT } from '../../src/shared/texts'
import { suiteServer } from '../helpers/suite-server'
import { openSocket } from './socket-client'

const server = suiteServer()

const store = () => server.services.store

describe('websocket /api/socket', () => {
  it('says connected with the user, and answers ping with pong', async () => {
    const s = await openSocket(server.url, server.admin)
    const hello = await s.next()
    expect(hello).toMatchObject({ event: 'connected', payload: { connected: true, user: { _id: 'admin' } } })
    s.send('ping', { n: 7 })
    expect(await s.next()).toEqual({ event: 'pong', payload: { n: 7 } })
    await s.close()
  })

  it('says connected:false and closes for a bad or missing token', async () => {
    for (const token of ['not-a-token', undefined]) {
      const s = await openSocket(server.url, token)
      expect(await s.next()).toEqual({
        event: 'connected',
        payload: { connected: false, message: SERVER_TEXT.notAuthenticated },
      })
      expect((await s.closed).code).toBe(4401)
    }
  })

  it('subscribes, lists and unsubscribes topics, and delivers hub.publish to subscribers only', async () => {
    const s = await openSocket(server.url, server.admin)
    const other = await openSocket(server.url, server.admin)
    await s.next()
    await other.next()
    s.send('subscribe', { topic: 'alpha' })
    s.send('subscribe', { topic: 'beta' })
    s.send('subscribe', { topic: 'beta' })
    s.send('subscriptions')
    expect(await s.next()).toEqual({ event: 'subscriptions', payload: ['alpha', 'beta'] })
    s.send('unsubscribe', { topic: 'alpha' })
    s.send('subscriptions')
    expect(await s.next()).toEqual({ event: 'subscriptions', payload: ['beta'] })

    expect(server.services.hub.publish('alpha', { x: 1 })).toBe(0)
    expect(server.services.hub.publish('beta', { x: 2 })).toBe(1)
    expect(await s.next()).toEqual({ event: 'beta', payload: { x: 2 } })
    // The other socket got nothing: its next frame is the pong to a later ping.
    other.send('ping')
    expect((await other.next()).event).toBe('pong')
    await s.close()
    await other.close()
    // Closed sockets leave the hub.
    await vi.waitFor(() => expect(server.services.hub.publish('beta', { x: 3 })).toBe(0))
  })

  it('refuses malformed frames and unknown events without closing', async () => {
    const s = await openSocket(server.url, server.admin)
    await s.next()
    s.ws.send('not json')
    expect(await s.next()).toEqual({ event: 'error', payload: { message: SYNC_TEXT.badMessage } })
    s.send('dance')
    expect(await s.next()).toMatchObject({ event: 'error', payload: { event: 'dance' } })
    s.send('subscribe', { topic: '' })
    expect(await s.next()).toMatchObject({ event: 'error', payload: { event: 'subscribe' } })
    s.send('sync', { cursor: -1 })
    expect(await s.next()).toEqual({
      event: 'error',
      payload: { event: 'sync', message: SYNC_TEXT.badCursor },
    })
    s.send('ping')
    expect((await s.next()).event).toBe('pong')
    await s.close()
  })

  it('publishes each change to the topic of its collection, only to those who may read it', async () => {
    const limited = await server.userWith('topic-reader', ['data/contacts:r'])
    const a = await openSocket(server.url, server.admin)
    const l = await openSocket(server.url, limited)
    await a.next()
    await l.next()
    for (const s of [a, l]) {
      s.send('subscribe', { topic: 'data/contacts' })
      s.send('subscribe', { topic: 'data/secret' })
      s.send('subscriptions')
      await s.next((m) => m.event === 'subscriptions')
    }
    await store().write(
      { op: 'put', collection: 'data/secret', id: 's', body: { pin: 1 } },
      { user: 'admin' },
    )
    await store().write(
      { op: 'put', collection: 'data/contacts', id: 'c', body: { n: 1 } },
      { user: 'admin' },
    )

    expect(await a.next()).toMatchObject({ event: 'data/secret', payload: { id: 's', op: 'upsert' } })
    expect(await a.next()).toMatchObject({ event: 'data/contacts', payload: { id: 'c' } })
    const seen = await l.next()
    expect(seen.event).toBe('data/contacts')
    expect((seen.payload as SyncChange).doc).toMatchObject({ _id: 'c', n: 1 })
    l.send('ping')
    expect((await l.next()).event).toBe('pong')
    await a.close()
    await l.close()
  })

  it('closes the socket when its session ends', async () => {
    const token = await server.login()
    const s = await openSocket(server.url, token)
    await s.next()
    const { jti } = decodeJwt(token)
    server.services.hub.sessionEnded(jti!)
    expect(await s.next()).toEqual({
      event: 'connected',
      payload: { connected: false, message: SYNC_TEXT.sessionEnded },
    })
    expect((await s.closed).code).toBe(4401)
  })

  it('closes the socket at once when its user logs out', async () => {
    const token = await server.login()
    const s = await openSocket(server.url, token)
    await s.next()
    expect((await server.api('/api/auth/logout', { method: 'DELETE', token })).status).toBe(200)
    expect(await s.next()).toEqual({
      event: 'connected',
      payload: { connected: false, message: SYNC_TEXT.sessionEnded },
    })
    expect((await s.closed).code).toBe(4401)
  })

  it('notices a revoked session on its own before streaming more changes', async () => {
    const token = await server.login()
    const s = await openSocket(server.url, token)
    await s.next()
    s.send('sync', { cursor: await store().headSeq() })
    await s.pagesUntil()
    await server.services.tokens.revoke(decodeJwt(token).jti!)
    // The active-socket re-check is throttled to once a second; wait past it, not for a result.
    await new Promise((resolve) => setTimeout(resolve, 1100))
    await store().write({ op: 'put', collection: 'data/contacts', id: 'late', body: {} }, { user: 'admin' })
    expect((await s.closed).code).toBe(4401)
    expect(s.messages.some((m) => m.event === 'changes' && JSON.stringify(m.payload).includes('late'))).toBe(
      false,
    )
  })
})
