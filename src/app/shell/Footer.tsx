/** The footer (SPEC §2): © year and product title, the configured legal links, and the version. */
import { useSite } from '../session/use-session'

export function Footer() {
  const site = useSite()
  return (
    <footer className="footer">
      <span>
        © {new Date().getFullYear()} {site.title}
      </span>
      {site.terms_of_service_url && (
        <a href={site.terms_of_service_url} target="_blank" rel="noreferrer">
          Terms of Service
        </a>
      )}
      {site.privacy_policy_url && (
        <a href={site.privacy_policy_url} target="_blank" rel="noreferrer">
          Privacy Policy
        </a>
      )}
      {site.version && <span className="footer-version">Version {site.version}</span>}
    </footer>
  )
}
