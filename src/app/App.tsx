/**
 * The console's composition: router (base per env.ts), the providers and overlays other parts mount,
 * and the routes. Other areas plug in by adding a marked line to the lists in SLOTS below; the shell
 * itself never imports them.
 */
import { Fragment, type PropsWithChildren } from 'react'
import { Router } from 'wouter'
import { AnalyticsCollector } from './analytics/AnalyticsCollector' // analytics: a visit per page view
import { SyncProvider } from './data/sync-context' // sync
import { ROUTER_BASE } from './env'
import { feedbackOverlays, feedbackToolbar, openAssistant } from './feedback/shell-parts' // feedback
import { FormsQueueRunner } from './forms/FormsQueueRunner' // forms: offline submissions sent from any page
import { UpdateBanner } from './pwa/UpdateBanner' // pwa
import { AppRoutes } from './routes/AppRoutes'
import { CallInvitations } from './routes/messages/CallInvitations' // messages: call invitations ring on every page
import { SiteFromSync } from './settings/SiteFromSync' // settings: theme/title from the mirrored settings
import { EMPTY_SLOTS, type ShellSlots, SlotsContext } from './shell/slots'
import { syncOverlays, syncToolbar } from './sync-ui' // sync

const SLOTS: ShellSlots = {
  ...EMPTY_SLOTS,
  // Providers wrapping every page, outermost first. e.g. `ToastProvider, // feedback`
  providers: [SyncProvider], // sync: the engine bound to the session (src/app/data)
  // Toolbar controls left of Save. e.g. `OnlineIndicator, // feedback`
  toolbar: [...syncToolbar, ...feedbackToolbar], // sync: status + Sync panel button; feedback: connection indicator
  // Rendered once beside every page. e.g. `ToastStack, AssistantPopup, InstallPrompt, // feedback`
  overlays: [
    ...syncOverlays,
    ...feedbackOverlays,
    UpdateBanner,
    SiteFromSync,
    CallInvitations,
    AnalyticsCollector,
    FormsQueueRunner,
  ], // sync: Sync panel, banners; feedback: toasts, confirm dialog, assistant, install prompt; pwa: update banner; settings: site config from the mirrored settings; messages: call invitations; analytics: visits; forms: the submission queue
  // The sidebar's AI Assistant entry. e.g. `openAssistant: () => assistant.open(), // feedback`
  openAssistant, // feedback
}

function Providers({ children }: PropsWithChildren) {
  return SLOTS.providers.reduceRight<React.ReactNode>(
    (inner, P) => <P key={P.displayName ?? P.name}>{inner}</P>,
    children,
  )
}

export function App() {
  return (
    <SlotsContext.Provider value={SLOTS}>
      <Router base={ROUTER_BASE}>
        <Providers>
          <AppRoutes />
          {SLOTS.overlays.map((O, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: fixed list set at start-up
            <Fragment key={i}>
              <O />
            </Fragment>
          ))}
        </Providers>
      </Router>
    </SlotsContext.Provider>
  )
}
