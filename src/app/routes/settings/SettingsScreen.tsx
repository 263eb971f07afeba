/**
 * Settings (SPEC §2 /settings, §3 known settings). The settings come from the local mirror (so the
 * screen opens offline); each changed setting is saved with put as its own document {_id, value}
 * through the mutation API. Save is the toolbar button or Ctrl/Cmd+S; leaving with unsaved changes asks
 * first (use-edit-state). push_public_key belongs to the server and is shown read-only.
 * What is saved is what the user changed relative to the settings as they were when the edit began
 * (the edit's base), each put with that setting's opened version as `base`: a setting someone else
 * changed meanwhile is kept (another setting) or becomes a conflict (the same one), never reverted.
 */
import { useLiveQuery } from 'dexie-react-hooks'
import { CloudOff } from 'lucide-react'
import { useMemo } from 'react'
import type { SyncDoc } from '../../../db/types'
import { EDIT_BASE_TEXT, REFUSAL_TEXT, SCREENS_TEXT } from '../../../shared/texts'
import { runBatches } from '../../components/batches'
import { RefusalNote } from '../../components/RefusalNote'
import { useMutate, useSyncDb } from '../../data/sync-context'
import { useRefusalIn } from '../../data/use-save-refusal'
import { notifyBatchSaved, notifySaved } from '../../feedback/notify'
import { toast } from '../../feedback/toast-store'
import { useEditState } from '../../hooks/use-edit-state'
import { useShortcut } from '../../hooks/use-shortcut'
import { ReadOnlyNote } from '../../session/ReadOnly'
import { useWriteRefusal } from '../../session/use-can'
import { usePageTitle, useSaveAction } from '../../shell/page-chrome'
import { useServerReachable } from '../../sync-ui/use-server-reachable'
import { ColourSetting, PushKeyField, SecretSetting, TextSetting } from './fields'
import { RunHistorySettings } from './RunHistorySettings'
import { StorageUse } from './StorageUse'
import {
  changedSettings,
  type EditableId,
  formFromValues,
  SETTING_LABELS,
  type SettingsForm,
  validateSettings,
} from './settings-model'
import { ThemePreview } from './ThemePreview'
import './settings.css'

const valuesOf = (docs: Record<string, SyncDoc>): Map<string, unknown> =>
  new Map(Object.entries(docs).map(([id, doc]) => [id, doc.value]))

export function SettingsScreen() {
  usePageTitle('Settings')
  const db = useSyncDb()
  const mutate = useMutate()
  const reachable = useServerReachable()
  const rows = useLiveQuery(async () => (db ? db.settings.toArray() : undefined), [db])
  const stored = useMemo(() => new Map((rows ?? []).map((r) => [r.id, r.value])), [rows])
  const pending = (rows ?? []).filter((r) => r.pending === 1).map((r) => r.id)
  const docs = useMemo(() => Object.fromEntries((rows ?? []).map((r) => [r.id, r.doc])), [rows])
  const original = useMemo(() => formFromValues(stored), [stored])
  const edit = useEditState<SettingsForm, Record<string, SyncDoc>>(original, { version: docs })
  const f = edit.value
  const errors = validateSettings(f)
  const invalid = Object.keys(errors).length > 0
  const set = (patch: Partial<SettingsForm>) => edit.setValue((v) => ({ ...v, ...patch }))
  // Without settings:u the settings are shown read-only, with no Save and a note why (issue 11).
  const saveRefused = useWriteRefusal()('update', 'settings')
  // The server's refusal of a queued settings save, here as well as in the Sync panel.
  const queuedRefusal = useRefusalIn('settings')

  const save = async () => {
    if (saveRefused) return
    if (invalid) {
      toast.error(SCREENS_TEXT.settingsInvalid)
      return
    }
    // Relative to the settings the edit started from, not the live ones (which may be newer).
    const opened = edit.baseVersion ?? {}
    const changes = changedSettings(f, valuesOf(opened))
    if (!changes.length) return
    const saved: Record<string, SyncDoc> = {}
    const result = await runBatches(
      changes,
      async ([id, value]) => {
        saved[id] = await mutate.put('settings', id, { value }, { base: opened[id] ?? null })
      },
      () => {},
    )
    if (result.failed === 0) {
      const now = { ...docs, ...saved }
      edit.commit(formFromValues(valuesOf(now)), now)
    }
    const written = Object.keys(saved).map((id) => ({ collection: 'settings', id }))
    if (changes.length === 1 && result.done === 1)
      notifySaved(SETTING_LABELS[changes[0]![0]], reachable, written[0])
    else notifyBatchSaved(result.done, changes.length, 'settings', reachable, written)
    if (result.failed && result.firstError instanceof Error) toast.error(result.firstError.message)
  }
  useSaveAction(rows?.length && !saveRefused ? save : null, { disabled: !edit.modified })

  useShortcut('save', saveRefused ? () => {} : null)

  // No row yet: this device's first mirror has not brought the settings (the server always has them).
  // An empty form then would show blanks as the settings and let typing race the rows arriving.
  if (!rows || rows.length === 0)
    return (
      <div className="screen-loading" role="status">
        <span className="spinner" aria-hidden="true" /> Loading settings…
      </div>
    )

  const pushKey = stored.get('push_public_key')
  return (
    <section className="screen settings-screen" aria-labelledby="page-heading">
      <header className="screen-head screen-head-row">
        <div>
          <h1 id="page-heading">Settings</h1>
          <p className="muted">
            Shared by everyone using this platform.
            {pending.length > 0 && (
              <span className="sync-marker" title={SCREENS_TEXT.notSyncedHint}>
                <CloudOff size={13} aria-hidden="true" /> {SCREENS_TEXT.notSynced}: {pending.join(', ')}
              </span>
            )}
          </p>
        </div>
        {edit.modified && (
          <div className="actions">
            <button type="button" className="button button-quiet" onClick={edit.undo}>
              Undo changes
            </button>
          </div>
        )}
      </header>

      {saveRefused && <ReadOnlyNote needed={saveRefused.needed} action="change settings" />}
      <RefusalNote
        refusal={queuedRefusal}
        field={null}
        words={(message) =>
          REFUSAL_TEXT.refusedOne(
            SETTING_LABELS[queuedRefusal?.docId as EditableId] ?? queuedRefusal?.docId ?? '',
            message,
          )
        }
      />
      {edit.changedElsewhere && (
        <p className="notice notice-warning" role="status">
          {EDIT_BASE_TEXT.changedElsewhere}
        </p>
      )}
      <div className="settings-grid">
        <fieldset className="settings-card" disabled={!!saveRefused}>
          <legend>General</legend>
          <TextSetting
            label="Title"
            value={f.title}
            onChange={(title) => set({ title })}
            error={errors.title}
          />
          <TextSetting
            label="Description"
            multiline
            value={f.description}
            onChange={(description) => set({ description })}
            hint="Shown on the home page and in search results."
          />
          <TextSetting
            label="Version"
            value={f.version}
            onChange={(version) => set({ version })}
            hint="Shown in the footer."
          />
          <div className="logo-row">
            <TextSetting
              label="Logo"
              type="url"
              value={f.logo}
              onChange={(logo) => set({ logo })}
              error={errors.logo}
              placeholder="https://example.com/logo.svg"
            />
            {f.logo && !errors.logo && <img className="logo-preview" src={f.logo} alt="Logo preview" />}
          </div>
          <TextSetting
            label="Contact"
            value={f.contact}
            onChange={(contact) => set({ contact })}
            error={errors.contact}
            placeholder="support@example.com"
            hint="An e-mail address or a link people can use to reach you."
          />
          <TextSetting
            label="Public URL"
            type="url"
            value={f.public_url}
            onChange={(public_url) => set({ public_url })}
            error={errors.public_url}
            placeholder="https://console.example.com"
            hint="The address people use; links in e-mails and notifications point here."
          />
          <TextSetting
            label="Terms of Service link"
            type="url"
            value={f.terms_of_service_url}
            onChange={(terms_of_service_url) => set({ terms_of_service_url })}
            error={errors.terms_of_service_url}
            placeholder="https://example.com/terms"
            hint="Shown in the footer; leave empty to hide the link."
          />
          <TextSetting
            label="Privacy Policy link"
            type="url"
            value={f.privacy_policy_url}
            onChange={(privacy_policy_url) => set({ privacy_policy_url })}
            error={errors.privacy_policy_url}
            placeholder="https://example.com/privacy"
            hint="Shown in the footer; leave empty to hide the link."
          />
        </fieldset>

        <fieldset className="settings-card" disabled={!!saveRefused}>
          <legend>Installed app</legend>
          <TextSetting
            label="App name"
            value={f.pwa.name}
            onChange={(name) => set({ pwa: { ...f.pwa, name } })}
            hint="The name shown when the console is installed; empty: the Title."
          />
          <TextSetting
            label="Short name"
            value={f.pwa.short_name}
            onChange={(short_name) => set({ pwa: { ...f.pwa, short_name } })}
            error={errors['pwa.short_name']}
            hint="Under the home-screen icon (about 12 characters); empty: from the name."
          />
        </fieldset>

        <fieldset className="settings-card settings-theme">
          <legend>Theme</legend>
          <div className="colour-grid">
            <ColourSetting
              label="Background"
              value={f.theme.background}
              onChange={(background) => set({ theme: { ...f.theme, background } })}
              error={errors['theme.background']}
            />
            <ColourSetting
              label="Primary"
              value={f.theme.primary}
              onChange={(primary) => set({ theme: { ...f.theme, primary } })}
              error={errors['theme.primary']}
            />
            <ColourSetting
              label="Accent"
              value={f.theme.accent}
              onChange={(accent) => set({ theme: { ...f.theme, accent } })}
              error={errors['theme.accent']}
            />
          </div>
          <label className="toggle">
            <input
              type="checkbox"
              checked={f.theme.darkMode}
              onChange={(e) => set({ theme: { ...f.theme, darkMode: e.target.checked } })}
            />
            <span>Dark mode</span>
          </label>
          {!invalid || !Object.keys(errors).some((k) => k.startsWith('theme.')) ? (
            <ThemePreview theme={f.theme} title={f.title} />
          ) : null}
        </fieldset>

        <fieldset className="settings-card" disabled={!!saveRefused}>
          <legend>Integrations</legend>
          <PushKeyField value={typeof pushKey === 'string' ? pushKey : undefined} />
          <SecretSetting
            label="Stripe token"
            value={f.stripe_token}
            onChange={(stripe_token) => set({ stripe_token })}
            hint="Secret key of the payment provider."
          />
          <SecretSetting
            label="WebRTC key"
            value={f.webrtc_key}
            onChange={(webrtc_key) => set({ webrtc_key })}
          />
          <TextSetting
            label="WebRTC port"
            inputMode="numeric"
            value={f.webrtc_port}
            onChange={(webrtc_port) => set({ webrtc_port })}
            error={errors.webrtc_port}
            placeholder="3478"
          />
        </fieldset>

        <RunHistorySettings
          value={f.action_runs}
          errors={errors}
          disabled={!!saveRefused}
          onChange={(action_runs) => set({ action_runs })}
        />

        <section className="settings-card" aria-labelledby="storage-heading">
          <h2 id="storage-heading" className="legend">
            This device
          </h2>
          <StorageUse />
        </section>
      </div>
    </section>
  )
}
