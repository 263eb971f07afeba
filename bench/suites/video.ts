/**
 * 16. Video calls (issue 18): the time from the second participant's Join click to the first frame of
 * the other participant's video shown in its call (requestVideoFrameCallback on the remote tile's
 * <video>: decoded and presented), direct and forced through coturn (`?ice=relay`, TURN credentials
 * the server signs with `webrtc_key`). Two fresh Chromium contexts with the fake camera and
 * microphone per round, both logged in as admin (one user may join from two devices): the first joins
 * untimed, the second is timed. It includes what a Join costs in the console: the `video/join`
 * round trip on the websocket, TURN credentials, perfect negotiation through the server, ICE, DTLS.
 *
 * Baseline, in the same run, rounds alternating: a loopback RTCPeerConnection pair inside one page of
 * the same browser, signalled in-page, from the same fake camera stream (already open, as the
 * pre-join preview's is) to the first frame presented — the floor of WebRTC itself on this machine;
 * for the relay row the same pair with iceTransportPolicy 'relay' through the same coturn.
 * Without /usr/bin/turnserver the relay row is left out and the details say why.
 */
import { createHmac } from 'node:crypto'
import fs from 'node:fs'
import type { Browser, Page } from 'playwright-core'
import { startCoturn, TURNSERVER } from '../../tests/helpers/coturn'
import { launch, newContext } from '../lib/browser'
import { storeToken } from '../lib/console'
import type { BenchContext } from '../lib/context'
import { percentile, type Row, round, row } from '../lib/stats'

/** The e2e test's flags (tests/e2e/video.spec.ts): fake devices granted without asking, loopback ICE. */
const VIDEO_ARGS = [
  '--use-fake-device-for-media-stream',
  '--use-fake-ui-for-media-stream',
  '--disable-features=WebRtcHideLocalIpsWithMdns',
  '--allow-loopback-in-peer-connection',
]

/**
 * In every page of a context: window.__joinAt at the Join click (capture phase, before React's
 * handler), window.__tileAt when the first remote tile's <video> is in the DOM (the remote track has
 * arrived: signalling and negotiation are done), window.__firstFrame at its first frame presented.
 */
const PROBE = `(() => {
  document.addEventListener('click', (e) => {
    const b = e.target instanceof Element ? e.target.closest('button') : null
    if (b && b.textContent.trim() === 'Join' && window.__joinAt === undefined) window.__joinAt = performance.now()
  }, { capture: true })
  const seen = new WeakSet()
  const watch = () => {
    for (const v of document.querySelectorAll('figure.video-tile:not(.video-tile-self) video')) {
      if (seen.has(v)) continue
      seen.add(v)
      if (window.__tileAt === undefined) window.__tileAt = performance.now()
      v.requestVideoFrameCallback(() => { if (window.__firstFrame === undefined) window.__firstFrame = performance.now() })
    }
  }
  const start = () => new MutationObserver(watch).observe(document.documentElement, { childList: true, subtree: true })
  if (document.documentElement) start()
  else document.addEventListener('DOMContentLoaded', start)
})()`

type ProbeWindow = { __joinAt?: number; __tileAt?: number; __firstFrame?: number }

export interface VideoOptions {
  rounds: number
}

interface Turn {
  port: number
  username: string
  credential: string
}

async function setSetting(ctx: BenchContext, id: string, value: unknown): Promise<void> {
  const { server, token } = ctx
  let res = await server.api(`/api/settings/${id}`, { method: 'PATCH', json: { value }, token })
  if (res.status === 404) res = await server.api('/api/settings', { json: { _id: id, value }, token })
  if (res.status >= 300) throw new Error(`setting ${id}: ${res.status} ${await res.text()}`)
}

async function openRoom(browser: Browser, ctx: BenchContext, room: string, query: string): Promise<Page> {
  const context = await newContext(browser)
  await context.addInitScript(PROBE)
  // The machine is shared: a console page may take long to load; the timing starts at Join anyway.
  context.setDefaultTimeout(120_000)
  const page = await context.newPage()
  await storeToken(page, ctx.server, ctx.token)
  await page.goto(`${ctx.server.url}/ui/video/${room}${query}`)
  return page
}

async function join(page: Page, name: string): Promise<void> {
  await page.getByLabel('Your name').fill(name)
  // Enabled once the preview's stream is open (tests/e2e/pages/video.ts).
  await page.waitForFunction(
    () =>
      [...document.querySelectorAll('button')].some((b) => b.textContent?.trim() === 'Join' && !b.disabled),
    undefined,
    { timeout: 120_000 },
  )
  await page.getByRole('button', { name: 'Join', exact: true }).click()
}

/** One console round: A joins (untimed), B clicks Join; ms from that click to B's first frame of A. */
async function consoleRound(browser: Browser, ctx: BenchContext, room: string, relay: boolean) {
  const query = relay ? '?ice=relay' : ''
  const a = await openRoom(browser, ctx, room, query)
  const b = await openRoom(browser, ctx, room, query)
  try {
    await join(a, 'A')
    await a.locator('section.video-call').waitFor({ timeout: 120_000 })
    await join(b, 'B')
    await b.waitForFunction(() => (window as ProbeWindow).__firstFrame !== undefined, undefined, {
      timeout: 120_000,
    })
    const { joinAt, tileAt, firstFrame } = await b.evaluate(() => {
      const w = window as ProbeWindow
      return { joinAt: w.__joinAt!, tileAt: w.__tileAt!, firstFrame: w.__firstFrame! }
    })
    // The route the console reports (getStats, polled each second): the relay row must be relayed.
    await b.waitForFunction(
      (want) =>
        document
          .querySelector('figure.video-tile[data-name="A"]:not(.video-tile-self)')
          ?.getAttribute('data-route') === want,
      relay ? 'relay' : 'direct',
      { timeout: 30_000 },
    )
    return { ms: firstFrame - joinAt, tileMs: tileAt - joinAt }
  } finally {
    await a.context().close()
    await b.context().close()
  }
}

/** The floor: a loopback pair in one page, signalled in-page, from an open camera stream to a frame. */
async function loopbackRound(browser: Browser, ctx: BenchContext, turn: Turn | null): Promise<number> {
  const context = await newContext(browser)
  try {
    const page = await context.newPage()
    await page.goto(`${ctx.server.url}/ui/login`)
    return await page.evaluate(async (turn) => {
      const stream = await navigator.mediaDevices.getUserMedia({ video: true, audio: true })
      const config: RTCConfiguration = turn
        ? {
            iceServers: [
              {
                urls: `turn:127.0.0.1:${turn.port}?transport=udp`,
                username: turn.username,
                credential: turn.credential,
              },
            ],
            iceTransportPolicy: 'relay',
          }
        : { iceServers: [] }
      const started = performance.now()
      const one = new RTCPeerConnection(config)
      const two = new RTCPeerConnection(config)
      one.onicecandidate = (e) => void (e.candidate && two.addIceCandidate(e.candidate))
      two.onicecandidate = (e) => void (e.candidate && one.addIceCandidate(e.candidate))
      const frame = new Promise<number>((resolve) => {
        two.ontrack = (e) => {
          if (e.track.kind !== 'video') return
          const video = document.createElement('video')
          video.autoplay = true
          video.playsInline = true
          video.srcObject = e.streams[0] ?? new MediaStream([e.track])
          document.body.append(video)
          video.requestVideoFrameCallback(() => resolve(performance.now()))
        }
      })
      for (const track of stream.getTracks()) one.addTrack(track, stream)
      await one.setLocalDescription(await one.createOffer())
      await two.setRemoteDescription(one.localDescription!)
      await two.setLocalDescription(await two.createAnswer())
      await one.setRemoteDescription(two.localDescription!)
      const ms = (await frame) - started
      one.close()
      two.close()
      for (const track of stream.getTracks()) track.stop()
      return ms
    }, turn)
  } finally {
    await context.close()
  }
}

function rows(label: string, baseline: string, console: number[], floor: number[]): Row[] {
  const n = console.length
  return [50, 95].map((p) =>
    row({
      bench: '16 video',
      metric: `${label}: Join click → first remote frame, ${p === 50 ? 'median' : 'p95'} of ${n}`,
      value: percentile(console, p),
      unit: 'ms',
      baseline,
      baselineValue: percentile(floor, p),
    }),
  )
}

async function measure(
  browser: Browser,
  ctx: BenchContext,
  rounds: number,
  relay: Turn | null,
): Promise<{ console: number[]; tile: number[]; floor: number[] }> {
  const consoleMs: number[] = []
  const tileMs: number[] = []
  const floorMs: number[] = []
  const kind = relay ? 'relay' : 'direct'
  for (let i = 0; i < rounds; i++) {
    ctx.log(`video: ${kind} round ${i + 1}/${rounds}`)
    const room = `bench-${kind}-${Date.now()}-${i}`
    const runConsole = async () => {
      const r = await consoleRound(browser, ctx, room, relay !== null)
      consoleMs.push(r.ms)
      tileMs.push(r.tileMs)
    }
    if (i % 2 === 0) {
      floorMs.push(await loopbackRound(browser, ctx, relay))
      await runConsole()
    } else {
      await runConsole()
      floorMs.push(await loopbackRound(browser, ctx, relay))
    }
  }
  return { console: consoleMs, tile: tileMs, floor: floorMs }
}

/** Every sample, and the Join → remote tile part (signalling and negotiation) of each console round. */
const samples = (r: { console: number[]; tile: number[]; floor: number[] }) => ({
  consoleMs: r.console.map((m) => round(m)),
  joinToRemoteTileMs: r.tile.map((m) => round(m)),
  floorMs: r.floor.map((m) => round(m)),
})

export async function videoSuite(ctx: BenchContext, opts: VideoOptions) {
  const browser = await launch(VIDEO_ARGS)
  const out: Row[] = []
  const details: Record<string, unknown> = {}
  try {
    // Direct: no webrtc_key, so the console hands out no ICE servers (host candidates on loopback).
    await setSetting(ctx, 'webrtc_key', '')
    const direct = await measure(browser, ctx, opts.rounds, null)
    out.push(...rows('direct', 'loopback RTCPeerConnection pair in one page', direct.console, direct.floor))
    details.direct = samples(direct)

    if (!fs.existsSync(TURNSERVER)) {
      details.relay = `skipped: coturn is not installed (${TURNSERVER})`
      ctx.log(`video: relay row skipped, ${TURNSERVER} is absent`)
      return { rows: out, details }
    }
    const secret = `bench-${Date.now()}`
    const turn = await startCoturn(secret)
    try {
      await setSetting(ctx, 'webrtc_key', secret)
      await setSetting(ctx, 'webrtc_port', turn.port)
      // The floor's credentials, in the TURN REST scheme the server uses (src/server/video/turn.ts).
      const username = `${Math.floor(Date.now() / 1000) + 3600}:bench`
      const credential = createHmac('sha1', secret).update(username).digest('base64')
      const relayed = await measure(browser, ctx, opts.rounds, { port: turn.port, username, credential })
      out.push(
        ...rows(
          'relayed (coturn)',
          'the same pair, relay-only through the same coturn',
          relayed.console,
          relayed.floor,
        ),
      )
      details.relay = { ...samples(relayed), coturnSawServerCredentials: /:admin/.test(turn.log()) }
    } finally {
      await setSetting(ctx, 'webrtc_key', '')
      turn.stop()
    }
    return { rows: out, details }
  } finally {
    await browser.close()
  }
}
