/**
 * Route entries of the Actions screens, loaded on first use: the editor brings CodeMirror with the
 * JavaScript grammar and the list brings croner and cronstrue; all of it stays out of the shell's
 * initial JavaScript and off every other route.
 */
import { lazyRoute } from '../../components/lazy-route'

export const ActionsRoute = lazyRoute(async () => (await import('./ActionsScreen')).ActionsScreen)
export const ActionRoute = lazyRoute(async () => (await import('./ActionScreen')).ActionScreen)
