/**
 * Connection quality of one peer from RTCPeerConnection.getStats(): the selected candidate pair's
 * round-trip time and route (direct or through the TURN relay), and the incoming video's frames and
 * loss since the previous reading. `grade` turns them into the word the participant list shows.
 */
export type Quality = 'good' | 'fair' | 'poor' | 'connecting'

export interface LinkStats {
  /** Round-trip time of the selected candidate pair, in ms, or null before one is selected. */
  rttMs: number | null
  /** 'relay' when either side's selected candidate is a TURN relay candidate. */
  route: 'direct' | 'relay' | null
  framesDecoded: number
  packetsReceived: number
  packetsLost: number
  /** Share of packets lost since the previous reading (0..1). */
  loss: number
  /** Frames decoded per second since the previous reading. */
  fps: number
  at: number
  quality: Quality
}

export function grade(s: Pick<LinkStats, 'rttMs' | 'loss' | 'route' | 'fps'>): Quality {
  if (s.rttMs === null || s.route === null) return 'connecting'
  if (s.rttMs > 600 || s.loss > 0.08) return 'poor'
  if (s.rttMs > 250 || s.loss > 0.02) return 'fair'
  return 'good'
}

type Report = Record<string, unknown> & { type: string; id: string }

export async function readStats(
  pc: RTCPeerConnection,
  previous: LinkStats | null,
): Promise<LinkStats | null> {
  if (pc.connectionState === 'closed') return previous
  let report: RTCStatsReport
  try {
    report = await pc.getStats()
  } catch {
    return previous
  }
  const all = new Map<string, Report>()
  report.forEach((r: Report) => {
    all.set(r.id, r)
  })
  let pair: Report | undefined
  let framesDecoded = 0
  let packetsReceived = 0
  let packetsLost = 0
  for (const r of all.values()) {
    if (r.type === 'transport' && typeof r.selectedCandidatePairId === 'string') {
      pair = all.get(r.selectedCandidatePairId)
    }
    if (r.type === 'inbound-rtp' && r.kind === 'video') {
      framesDecoded += Number(r.framesDecoded ?? 0)
      packetsReceived += Number(r.packetsReceived ?? 0)
      packetsLost += Number(r.packetsLost ?? 0)
    }
  }
  // Chromium names the selected pair on the transport; fall back to the nominated, succeeded one.
  pair ??= [...all.values()].find(
    (r) => r.type === 'candidate-pair' && r.nominated && r.state === 'succeeded',
  )
  const local = pair ? all.get(String(pair.localCandidateId)) : undefined
  const remote = pair ? all.get(String(pair.remoteCandidateId)) : undefined
  const rtt = pair && typeof pair.currentRoundTripTime === 'number' ? pair.currentRoundTripTime * 1000 : null
  const route = !pair
    ? null
    : local?.candidateType === 'relay' || remote?.candidateType === 'relay'
      ? 'relay'
      : 'direct'
  const now = Date.now()
  const dt = previous ? (now - previous.at) / 1000 : 0
  const received = packetsReceived - (previous?.packetsReceived ?? 0)
  const lost = packetsLost - (previous?.packetsLost ?? 0)
  const loss = received + lost > 0 ? Math.max(0, lost) / (received + Math.max(0, lost)) : 0
  const fps = dt > 0 ? Math.max(0, framesDecoded - (previous?.framesDecoded ?? 0)) / dt : 0
  const stats = {
    rttMs: rtt,
    route,
    framesDecoded,
    packetsReceived,
    packetsLost,
    loss,
    fps,
    at: now,
  } as const
  return { ...stats, quality: pc.connectionState === 'connected' ? grade(stats) : 'connecting' }
}
