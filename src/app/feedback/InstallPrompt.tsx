/**
 * The install prompt (SPEC §2, §4): a bottom sheet shown once, INSTALL_PROMPT_DELAY_MS after load, on
 * mobile only, with the app's logo and title and the two steps for the user's platform. Closing it is
 * remembered, so it never comes back on this device.
 */
import { useEffect, useId, useState } from 'react'
import { INSTALL_PROMPT_DELAY_MS } from '../../shared/constants'
import { FEEDBACK_TEXT } from '../../shared/texts'
import './feedback.css'
import { isAndroid, readInstallEnv, rememberInstallDismissed, shouldOfferInstall } from './install-rules'

export interface InstallPromptProps {
  /** Site title (settings `title`). */
  title: string
  /** Site logo address (settings `logo`); a neutral mark is drawn without one. */
  logo?: string | null
}

export function InstallPrompt({ title, logo }: InstallPromptProps) {
  const [open, setOpen] = useState(false)
  const headingId = useId()

  useEffect(() => {
    if (!shouldOfferInstall(readInstallEnv())) return
    const timer = setTimeout(() => {
      // Re-check: it may have been installed or dismissed in another tab meanwhile.
      if (shouldOfferInstall(readInstallEnv())) setOpen(true)
    }, INSTALL_PROMPT_DELAY_MS)
    return () => clearTimeout(timer)
  }, [])

  if (!open) return null
  const steps = isAndroid(navigator.userAgent) ? FEEDBACK_TEXT.installAndroid : FEEDBACK_TEXT.installOther
  const close = () => {
    rememberInstallDismissed()
    setOpen(false)
  }
  return (
    <section className="mc-sheet" role="dialog" aria-modal="false" aria-labelledby={headingId}>
      <div className="mc-sheet-head">
        {logo ? <img src={logo} alt="" /> : <LogoMark />}
        <h2 id={headingId}>{FEEDBACK_TEXT.installTitle(title)}</h2>
        <button type="button" className="mc-icon-button" aria-label={FEEDBACK_TEXT.close} onClick={close}>
          ×
        </button>
      </div>
      <p>{FEEDBACK_TEXT.installExplain}</p>
      <ol>
        {steps.map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
    </section>
  )
}

function LogoMark() {
  return (
    <svg viewBox="0 0 40 40" aria-hidden="true">
      <rect width="40" height="40" rx="8" fill="var(--primary, #1f6feb)" />
      <path d="M9 29V11l11 11 11-11v18" fill="none" stroke="#fff" strokeWidth="4" strokeLinejoin="round" />
    </svg>
  )
}
