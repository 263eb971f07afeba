/**
 * /api/settings (SPEC §3): the shared collection routes plus two rules. The ids in PUBLIC_SETTING_IDS
 * are readable without login, because the shell needs title, logo and theme before anyone signs in;
 * every other setting (payment and WebRTC keys) needs settings:r as usual. push_public_key belongs to
 * the server, which generates the VAPID pair: the API reads it but never writes it, or a changed key
 * would silently break every existing push subscription. The legal links (LINK_SETTING_IDS) end up as
 * every visitor's footer links, so only http(s) addresses (or nothing) are stored: a `javascript:`
 * link there would run in everyone's console.
 */
import type { FastifyInstance } from 'fastify'
import { LINK_SETTING_IDS, PUBLIC_SETTING_IDS } from '../../shared/constants'
import { COLLECTION_TEXT } from '../../shared/messages'
import { ApiError, badRequest } from '../errors'
import type { Services } from '../services'
import { registerCollection } from './collections'

export const SERVER_MANAGED_SETTINGS: readonly string[] = ['push_public_key']
const LINK_SETTINGS: readonly string[] = LINK_SETTING_IDS

/** An http(s) address, or empty / null for "no link". */
export function isLinkValue(value: unknown): boolean {
  if (value === null || value === '') return true
  if (typeof value !== 'string') return false
  try {
    const url = new URL(value)
    return url.protocol === 'https:' || url.protocol === 'http:'
  } catch {
    return false
  }
}

export async function settingsModule(api: FastifyInstance, services: Services): Promise<void> {
  registerCollection(api, services, {
    name: 'settings',
    publicIds: PUBLIC_SETTING_IDS,
    checkWritable(id) {
      if (SERVER_MANAGED_SETTINGS.includes(id)) {
        throw new ApiError('method_not_allowed', COLLECTION_TEXT.settingReadOnly)
      }
    },
    prepare(body, _op, id) {
      const settingId = id ?? (typeof body._id === 'string' ? body._id : undefined)
      if (settingId && LINK_SETTINGS.includes(settingId) && 'value' in body && !isLinkValue(body.value)) {
        throw badRequest(COLLECTION_TEXT.settingLinkInvalid(settingId))
      }
      return { body }
    },
  })
}
