/**
 * The console's PWA parts, mounted by the shell with marked lines: the registration (main.tsx), the
 * update banner (an App.tsx overlay) and the notifications toggle (the avatar menu).
 */
export { PushToggle } from './PushToggle'
export { registerServiceWorker, requestOutboxSync, SYNC_POKE_EVENT, swRegistration } from './register'
export { UpdateBanner } from './UpdateBanner'
