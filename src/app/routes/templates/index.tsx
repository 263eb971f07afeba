/**
 * Route entries of the Templates screens, loaded on first use: the editor brings CodeMirror with it,
 * which must stay out of the shell's initial JavaScript and off every other route.
 */
import { lazyRoute } from '../../components/lazy-route'

export const TemplatesRoute = lazyRoute(async () => (await import('./TemplatesScreen')).TemplatesScreen)
export const TemplateRoute = lazyRoute(async () => (await import('./TemplateScreen')).TemplateScreen)
