/** What the sync UI plugs into the shell (App.tsx slots): the toolbar control and the overlays. */
import { SyncBanners } from './SyncBanners'
import { SyncIndicator } from './SyncIndicator'
import { SyncPanel } from './SyncPanel'

export const syncToolbar = [SyncIndicator]
export const syncOverlays = [SyncPanel, SyncBanners]
export { syncPanel } from './panel-store'
