/**
 * The Messages route, loaded on first use. (CallInvitations, the ring on every page, is imported by
 * App.tsx from its own file, so the login page's first JavaScript does not carry it.)
 */
import { lazyRoute } from '../../components/lazy-route'

export const MessagesRoute = lazyRoute(async () => (await import('./MessagesScreen')).MessagesScreen)
