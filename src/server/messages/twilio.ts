/**
 * SMS through Twilio's Messages REST API (2010-04-01): POST {base}/2010-04-01/Accounts/{sid}/Messages.json
 * with a form-encoded To, From and Body and HTTP basic auth (account SID, auth token). The answer is
 * 201 with the message's JSON (`sid`); an error is JSON `{code, message, more_info, status}`.
 *
 * A small fetch client rather than the `twilio` SDK: the SDK has no base-URL option (it would need a
 * RequestClient subclass rewriting every URL), pulls in axios and some thirty other packages for one
 * POST, and the base URL is what makes the API's other speakers (a regional edge, a relay, the tests'
 * peer) usable. Twilio-compatible providers that speak the same wire format work unchanged.
 */
import { ProviderError, type SmsProvider } from './providers'

export interface TwilioConfig {
  /** e.g. https://api.twilio.com (MOMENTUM_SMS_URL); no trailing path. */
  url: string
  accountSid: string
  authToken: string
  /** The sender: an E.164 number or a Messaging Service / alphanumeric sender id (MOMENTUM_SMS_FROM). */
  from: string
}

/** A provider that does not answer in this long is treated as down for this attempt. */
const TIMEOUT_MS = 15_000

export function twilioProvider(config: TwilioConfig): SmsProvider {
  const base = config.url.replace(/\/+$/, '')
  const endpoint = `${base}/2010-04-01/Accounts/${encodeURIComponent(config.accountSid)}/Messages.json`
  const auth = `Basic ${Buffer.from(`${config.accountSid}:${config.authToken}`).toString('base64')}`
  return {
    async send(to, text) {
      // A Messaging Service SID goes in MessagingServiceSid, anything else is a From address.
      const sender = /^MG[0-9a-f]{32}$/i.test(config.from) ? 'MessagingServiceSid' : 'From'
      const form = new URLSearchParams({ To: to, [sender]: config.from, Body: text })
      let res: Response
      try {
        res = await fetch(endpoint, {
          method: 'POST',
          headers: {
            authorization: auth,
            'content-type': 'application/x-www-form-urlencoded',
            accept: 'application/json',
          },
          body: form.toString(),
          redirect: 'error',
          signal: AbortSignal.timeout(TIMEOUT_MS),
        })
      } catch (error) {
        throw new ProviderError(`SMS provider unreachable: ${(error as Error).message}`, false)
      }
      const raw = await res.text()
      let json: Record<string, unknown> = {}
      try {
        json = JSON.parse(raw) as Record<string, unknown>
      } catch {
        // Not JSON (a proxy's error page): the status says enough.
      }
      if (res.status >= 200 && res.status < 300) {
        return { providerId: typeof json.sid === 'string' ? json.sid : null }
      }
      const detail = typeof json.message === 'string' ? json.message : raw.slice(0, 200).trim()
      const code = json.code !== undefined && json.code !== null ? ` (code ${String(json.code)})` : ''
      // 4xx is the request's fault (bad number, unverified sender): retrying cannot help. 408 and 429
      // are the provider asking us to come back, and 5xx is its own trouble.
      const permanent = res.status >= 400 && res.status < 500 && res.status !== 408 && res.status !== 429
      throw new ProviderError(
        `SMS provider answered ${res.status}${code}: ${detail || 'no detail'}`,
        permanent,
      )
    },
  }
}
