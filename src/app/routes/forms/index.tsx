/**
 * Route entries of the Forms screens, loaded on first use: the editor and the filler bring rjsf with
 * them, which must stay out of the shell's initial JavaScript and off every other route.
 */
import { lazyRoute } from '../../components/lazy-route'

export const FormsRoute = lazyRoute(async () => (await import('./FormsScreen')).FormsScreen)
export const FormRoute = lazyRoute(async () => (await import('./FormScreen')).FormScreen)
