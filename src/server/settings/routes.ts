/**
 * /api/settings (SPEC §3): the shared collection routes plus two rules. The ids in PUBLIC_SETTING_IDS
 * are readable without login, because the shell needs title, logo and theme before anyone signs in;
 * every other setting (payment and WebRTC keys) needs settings:r as usual. push_public_key belongs to
 * the server, which generates the VAPID pair: the API reads it but never writes it, or a changed key
 * would silently break every existing push subscription. The legal links (LINK_SETTING_IDS) end up as
 * every visitor's footer links, so only http(s) addresses (or nothing) are stored: a `javascript:`
 * link there would run in everyone's console. The same holds for `public_url` (it becomes the origin of
 * reset links and a trusted hosted-login origin) and `logo` (an <img> in every console and the
 * manifest's icon), which may also be a path on this server or a data:image (issue 10).
 */
import type { FastifyInstance } from 'fastify'
import { ACTION_RUNS_SETTING, runRetention } from '../../shared/actions'
import { LINK_SETTING_IDS, PUBLIC_SETTING_IDS } from '../../shared/constants'
import { isHttpUrl, isSafeImageSrc } from '../../shared/safe-urls'
import { ACTION_TEXT, BROWSER_SECURITY_TEXT, COLLECTION_TEXT } from '../../shared/texts'
import { registerCollection } from '../collections/routes'
import { ApiError, badRequest } from '../errors'
import { collectionTable, type RouteTable } from '../http/route-table'
import type { Services } from '../services'

/** Settings (SPEC §3): the PUBLIC_SETTING_IDS are read without login, push_public_key is never written. */
export const SETTINGS_ROUTES: RouteTable = collectionTable(
  'settings',
  { list: 'public', read: 'public' },
  { list: 'settings:r (public ids without)', read: 'settings/{id}:r (public ids without)' },
)

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

/** Settings that must be an http(s) address, or empty / null for "not set". */
const URL_SETTINGS: readonly string[] = ['public_url']
/** Settings shown as an image: an http(s) address, a path on this server or a data:image. */
const IMAGE_SETTINGS: readonly string[] = ['logo']

const unset = (value: unknown) => value === null || value === ''

/** 400 with the rule when a setting that reaches the browser holds an unsafe value. */
function checkValue(id: string, value: unknown): void {
  if (LINK_SETTINGS.includes(id) && !isLinkValue(value))
    throw badRequest(COLLECTION_TEXT.settingLinkInvalid(id))
  if (URL_SETTINGS.includes(id) && !unset(value) && !isHttpUrl(value))
    throw badRequest(BROWSER_SECURITY_TEXT.settingUrlInvalid(id))
  if (IMAGE_SETTINGS.includes(id) && !unset(value) && !isSafeImageSrc(value))
    throw badRequest(BROWSER_SECURITY_TEXT.settingImageInvalid(id))
  if (id === ACTION_RUNS_SETTING && runRetention(value) === null)
    throw badRequest(ACTION_TEXT.runsSettingInvalid)
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
      if (settingId && 'value' in body) checkValue(settingId, body.value)
      return { body }
    },
  })
}
