import { describe, expect, it } from 'vitest'
import { CLIENT_LOG_BURST, CLIENT_LOG_WINDOW_MS, type ClientLogEntry, createClientLog } from './client-log'

function harness(fail = false) {
  const sent: ClientLogEntry[] = []
  let now = 1_000_000
  const log = createClientLog({
    send: async (e) => {
      sent.push(e)
      if (fail) throw new TypeError('Failed to fetch')
    },
    now: () => now,
  })
  return { sent, log, advance: (ms: number) => (now += ms) }
}

const entry = (log: string): ClientLogEntry => ({ level: 'ERROR', log, ctx: {} })

describe('client log', () => {
  it('sends entries, collapses repeats and caps a burst, then reports what it held back', () => {
    const h = harness()
    for (let i = 0; i < 100; i++) h.log(entry('same error'))
    expect(h.sent).toHaveLength(1)
    for (let i = 0; i < 100; i++) h.log(entry(`error ${i}`))
    expect(h.sent).toHaveLength(CLIENT_LOG_BURST)
    h.advance(CLIENT_LOG_WINDOW_MS)
    h.log(entry('later'))
    expect(h.sent.at(-2)).toMatchObject({
      level: 'WARN',
      ctx: { repeats: 99, dropped: 100 - (CLIENT_LOG_BURST - 1) },
    })
    expect(h.sent.at(-1)).toEqual(entry('later'))
  })

  it('ignores upload failures silently', async () => {
    const h = harness(true)
    h.log(entry('boom'))
    await new Promise((r) => setTimeout(r, 0))
    expect(h.sent).toHaveLength(1)
  })
})
