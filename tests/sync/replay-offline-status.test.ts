/**
 * With the server known out of reach, a replay attempt must not turn the status to 'syncing': the
 * toolbar would flicker "Syncing" beside a cut connection, and a screen reading "not offline" as
 * "reachable" (useServerReachable) told a delete made during the retry that it had reached the server:
 * the likely cause of a flake of tests/e2e/server-unreachable.spec.ts in CI (the online wording where the
 * offline one was expected). The first answer sets 'online' again.
 */
import 'fake-indexeddb/auto'
import { expect, test } from 'vitest'
import { suiteServer } from '../helpers/suite-server'
import { harness, settle, until } from './harness'

const server = suiteServer()

test('replay attempts while the server is out of reach leave the status offline until an answer', async () => {
  const token = await server.userWith('cut-replay', ['products:*'])
  const h = harness(server, 'cut-replay', token)
  const engine = await h.open({ live: false })
  await settle(engine)
  h.net.offline = true
  await engine.kick()
  await until(() => engine.status().network === 'offline', 'the engine to find the server out of reach')

  const seen: string[] = []
  const off = engine.subscribe((s) => seen.push(s.network))
  await engine.mutate.create('products', { name: 'Cut' }, 'cut-1')
  await until(async () => (await engine.pending())[0]?.attempts === 1, 'the first attempt to fail')
  await engine.kick()
  await until(async () => (await engine.pending())[0]?.attempts === 2, 'a second attempt to fail')
  expect(seen.filter((n) => n !== 'offline')).toEqual([])

  h.net.offline = false
  await engine.kick()
  await until(
    async () => (await engine.pending()).length === 0,
    'the write to go out once the server answers',
  )
  expect(engine.status().network).toBe('online')
  expect((await server.api('/api/products/cut-1', { token })).status).toBe(200)
  off()
  await engine.close()
})
