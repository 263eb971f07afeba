/**
 * The soak's end (docs/contributing/reliability.md), once the network is back for good: what is still unsettled
 * (the convergence poll's question: outboxes, upload and forms queues, mirror hashes), then the checks
 * of every write against the server (oplog.ts, uploads.ts, submissions.ts) and the rows left for the
 * user to decide (inbox, failed uploads, refused submissions).
 */
import type { Page } from '@playwright/test'
import type { E2EServer } from '../e2e/fixtures'
import { localState } from '../e2e/pages/sync-panel'
import { type Device, differences, serverList } from './harness'
import { changeLog, checkOps, type Op } from './oplog'
import { queuesLeft, toDecide } from './queues'
import { checkSubmissions, type Filler, FORM_TARGET } from './submissions'
import { checkUploads } from './uploads'
import { SHARED, SHARED_DOCS } from './writes'

export interface QueueTab {
  name: string
  page: Page
  /** A console tab (logged in: it has an upload queue); a filling tab has only the forms queue. */
  uploads: boolean
}

/** Every console tab and every device's filling tab. */
export function queueTabsOf(devices: Device[], fillers: Map<Device, Filler>): QueueTab[] {
  return [
    ...devices.flatMap((d) => d.pages.map((page, i) => ({ name: `${d.name}/${i}`, page, uploads: true }))),
    ...devices.map((d) => ({ name: `${d.name} form`, page: fillers.get(d)!.page, uploads: false })),
  ]
}

/** What is still to settle; empty: converged. */
export async function unsettled(
  server: E2EServer,
  token: string,
  devices: Device[],
  collections: string[],
  tabs: QueueTab[],
): Promise<string[]> {
  return [...(await differences(server, token, devices, collections)), ...(await queuesLeft(tabs))]
}

/** The problems found in the whole run, and what is left for the user to decide. */
export async function endChecks(
  server: E2EServer,
  token: string,
  ops: Op[],
  collections: string[],
  devices: Device[],
  tabs: QueueTab[],
) {
  const final = new Map<string, Record<string, unknown>[]>()
  // Settings are checked from the change log (oplog.ts): the list holds the server's own ids too.
  // Form submissions have ids the page made: checked by their notes (submissions.ts).
  for (const c of collections)
    if (c !== 'settings' && c !== FORM_TARGET) final.set(c, await serverList(server, token, c))
  const log = await changeLog(server, token)
  const problems = checkOps(
    ops,
    log,
    final,
    SHARED_DOCS.map((id) => `${SHARED}/${id}`),
  )
  problems.push(...(await checkUploads(server, token, ops, log)))
  problems.push(...checkSubmissions(ops, await serverList(server, token, FORM_TARGET), log))
  const inbox = await Promise.all(
    devices.flatMap((d) => d.pages.map(async (p) => (await localState(p, SHARED)).inbox)),
  )
  // One tab per origin: the desk's two tabs share their queues.
  const decide = await toDecide(tabs.filter((t) => !t.name.endsWith('/1')))
  return { problems, inbox: inbox.reduce((a, b) => a + b, 0), ...decide }
}
