/**
 * /api/settings (SPEC §3): the shared collection routes plus two rules. The ids in PUBLIC_SETTING_IDS
 * are readable without login, because the shell needs title, logo and theme before anyone signs in;
 * every other setting (payment and WebRTC keys) needs settings:r as usual. push_public_key belongs to
 * the server, which generates the VAPID pair: the API reads it but never writes it, or a changed key
 * would silently break every existing push subscription.
 */
import type { FastifyInstance } from 'fastify'
import { PUBLIC_SETTING_IDS } from '../../shared/constants'
import { COLLECTION_TEXT } from '../../shared/messages'
import { ApiError } from '../errors'
import type { Services } from '../services'
import { registerCollection } from './collections'

export const SERVER_MANAGED_SETTINGS: readonly string[] = ['push_public_key']

export async function settingsModule(api: FastifyInstance, services: Services): Promise<void> {
  registerCollection(api, services, {
    name: 'settings',
    publicIds: PUBLIC_SETTING_IDS,
    checkWritable(id) {
      if (SERVER_MANAGED_SETTINGS.includes(id)) {
        throw new ApiError('method_not_allowed', COLLECTION_TEXT.settingReadOnly)
      }
    },
  })
}
