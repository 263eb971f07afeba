/** "3 min" style ages for the pending list: coarse on purpose, the exact time is in the tooltip. */
import { SYNC_UI_TEXT } from '../../shared/texts'

export function formatAge(fromIso: string, now: number): string {
  const s = Math.max(0, Math.floor((now - Date.parse(fromIso)) / 1000))
  if (!Number.isFinite(s)) return ''
  if (s < 60) return SYNC_UI_TEXT.ageSeconds(s)
  if (s < 3600) return SYNC_UI_TEXT.ageMinutes(Math.floor(s / 60))
  if (s < 86_400) return SYNC_UI_TEXT.ageHours(Math.floor(s / 3600))
  return SYNC_UI_TEXT.ageDays(Math.floor(s / 86_400))
}
