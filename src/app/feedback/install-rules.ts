/**
 * When the install prompt may appear (SPEC §2, §4): on a mobile device, outside a frame, not already
 * installed, and not dismissed before. "Mobile" is a coarse (touch) primary pointer or a phone user
 * agent: a narrow desktop window is still a desktop and has its own install button.
 * The dismissal lives in localStorage: it must survive reloads and needs no async read before deciding.
 */
export const INSTALL_DISMISSED_KEY = 'momentum.installPrompt.dismissed'

export interface InstallEnv {
  coarsePointer: boolean
  userAgent: string
  inFrame: boolean
  standalone: boolean
  dismissed: boolean
}

export const isAndroid = (userAgent: string): boolean => /android/i.test(userAgent)

export function shouldOfferInstall(env: InstallEnv): boolean {
  if (env.inFrame || env.standalone || env.dismissed) return false
  return env.coarsePointer || /android|iphone|ipad|ipod|mobile/i.test(env.userAgent)
}

export function readInstallEnv(win: Window = window): InstallEnv {
  let inFrame = true
  try {
    inFrame = win.self !== win.top
  } catch {
    // A cross-origin parent throws on access: that is a frame.
  }
  return {
    coarsePointer: win.matchMedia('(pointer: coarse)').matches,
    userAgent: win.navigator.userAgent,
    inFrame,
    standalone:
      win.matchMedia('(display-mode: standalone)').matches ||
      (win.navigator as Navigator & { standalone?: boolean }).standalone === true,
    dismissed: isInstallDismissed(win),
  }
}

export function isInstallDismissed(win: Window = window): boolean {
  try {
    return win.localStorage.getItem(INSTALL_DISMISSED_KEY) !== null
  } catch {
    // Storage blocked (privacy mode): better never to nag than to nag every visit.
    return true
  }
}

export function rememberInstallDismissed(win: Window = window): void {
  try {
    win.localStorage.setItem(INSTALL_DISMISSED_KEY, new Date().toISOString())
  } catch {
    // Nothing to do: the sheet is closed for this visit anyway.
  }
}
