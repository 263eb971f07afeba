/**
 * A popup window of the given size, centred on the window that opens it: the hosted login and the
 * checkout page. Must be called within the click that asked for it, or the browser blocks it (null).
 */
export function openCenteredPopup(
  win: Window,
  url: string,
  name: string,
  width: number,
  height: number,
): Window | null {
  const left = Math.max(0, (win.screenX ?? 0) + (win.outerWidth - width) / 2)
  const top = Math.max(0, (win.screenY ?? 0) + (win.outerHeight - height) / 2)
  return win.open(url, name, `popup=yes,width=${width},height=${height},left=${left},top=${top}`)
}

/**
 * Calls `onClosed` once the popup is closed without having answered: a popup closed without answering
 * never will, so the caller settles instead of waiting forever. Closed must be seen twice, so a message
 * posted just before window.close() still arrives first. Returns the interval, for clearInterval.
 */
export function watchPopupClosed(win: Window, popup: Window, onClosed: () => void): number {
  let closedOnce = false
  return win.setInterval(() => {
    if (!popup.closed) return
    if (!closedOnce) {
      closedOnce = true
      return
    }
    onClosed()
  }, 500)
}
