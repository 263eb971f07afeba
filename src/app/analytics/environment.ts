/**
 * The SPEC §3 analytics record, read from the browser: [language, time-zone offset, CPU count, device
 * memory, window width, window height, network speed]. Values a browser does not expose
 * (deviceMemory outside Chromium, a speed not measured yet) are null rather than guessed.
 */

export type AnalyticsArray = [
  language: string,
  timezoneOffset: number,
  cpuCount: number | null,
  deviceMemory: number | null,
  windowWidth: number,
  windowHeight: number,
  /** Bytes per second from the speed test; null until measured. */
  networkSpeed: number | null,
]

interface NavigatorExtras {
  deviceMemory?: number
  connection?: { saveData?: boolean; type?: string }
  doNotTrack?: string | null
  globalPrivacyControl?: boolean
}

export function readEnvironment(speed: number | null, win: Window = window): AnalyticsArray {
  const nav = win.navigator as Navigator & NavigatorExtras
  return [
    nav.language || 'und',
    new Date().getTimezoneOffset(),
    Number.isFinite(nav.hardwareConcurrency) ? nav.hardwareConcurrency : null,
    typeof nav.deviceMemory === 'number' ? nav.deviceMemory : null,
    win.innerWidth,
    win.innerHeight,
    speed,
  ]
}

/**
 * Do Not Track (and its successor, Global Privacy Control) means no record at all: not a visit, not a
 * speed test. `window.doNotTrack` is where older Safari and Edge put it.
 */
export function trackingRefused(win: Window = window): boolean {
  const nav = win.navigator as Navigator & NavigatorExtras
  const dnt = nav.doNotTrack ?? (win as Window & { doNotTrack?: string }).doNotTrack
  return dnt === '1' || dnt === 'yes' || nav.globalPrivacyControl === true
}

/** Why this connection's data is the user's to spare, or null: the speed test never runs on one. */
export type MeteredReason = 'save-data' | 'cellular'

/**
 * Save-Data (the user's data saver) or a mobile network (`connection.type`, which Chromium reports on
 * Android and ChromeOS): 21 MB there comes out of a data plan. Browsers that say nothing count as
 * unmetered, as a desktop on Wi-Fi or a cable is.
 */
export function meteredConnection(win: Window = window): MeteredReason | null {
  const connection = (win.navigator as Navigator & NavigatorExtras).connection
  if (connection?.saveData === true) return 'save-data'
  if (connection?.type === 'cellular') return 'cellular'
  return null
}
