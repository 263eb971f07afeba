/**
 * Which of the file browser's forms is open (new folder, rename, description, share, move or copy) and its
 * wiring to the queued actions (actions.ts). The forms themselves are in dialogs.tsx.
 */
import { countOf } from '../../../shared/plural'
import type { StorageRoot } from '../../../shared/storage'
import { type Entry, isWithin, moveTargets } from '../../storage/entries'
import * as act from './actions'
import { DescriptionDialog, FolderPickerDialog, NameDialog, ShareDialog } from './dialogs'

export type BrowserDialog =
  | { kind: 'mkdir' }
  | { kind: 'rename'; entry: Entry }
  | { kind: 'describe'; entry: Entry }
  | { kind: 'share'; entry: Entry }
  | { kind: 'move' | 'copy'; entries: Entry[] }
  | null

export function BrowserDialogs({
  dialog,
  root,
  folder,
  entries,
  siblings,
  folders,
  mayCreate,
  onDone,
  onClose,
}: {
  dialog: BrowserDialog
  root: StorageRoot
  /** The folder on screen: where a new folder goes, and the picker's start. */
  folder: string
  entries: readonly Entry[]
  /** Names in the folder on screen (a new folder's name must not clash). */
  siblings: ReadonlySet<string>
  /** Every folder of the root, for the picker. */
  folders: readonly string[]
  mayCreate: (folder: string) => boolean
  /** After a move or copy: the selection goes. */
  onDone: () => void
  onClose: () => void
}) {
  if (dialog?.kind === 'mkdir')
    return (
      <NameDialog
        title="New folder"
        label="Folder name"
        submitLabel="Create folder"
        taken={siblings}
        onSubmit={(name) => act.createFolder(root, folder, name)}
        onClose={onClose}
      />
    )
  if (dialog?.kind === 'rename')
    return (
      <NameDialog
        title={`Rename ${dialog.entry.name}`}
        label="New name"
        submitLabel="Rename"
        initial={dialog.entry.name}
        taken={new Set(entries.filter((e) => e.parent === dialog.entry.parent).map((e) => e.name))}
        onSubmit={(name) => act.rename(root, dialog.entry, name)}
        onClose={onClose}
      />
    )
  if (dialog?.kind === 'describe')
    return (
      <DescriptionDialog
        name={dialog.entry.name}
        initial={dialog.entry.description ?? ''}
        onSubmit={(text) => act.describe(root, dialog.entry, text)}
        onClose={onClose}
      />
    )
  if (dialog?.kind === 'share')
    return (
      <ShareDialog
        name={dialog.entry.name}
        onSubmit={(seconds) => act.copyShareLink(root, dialog.entry, seconds)}
        onClose={onClose}
      />
    )
  if (dialog?.kind === 'move' || dialog?.kind === 'copy')
    return (
      <FolderPickerDialog
        root={root}
        title={`${dialog.kind === 'move' ? 'Move' : 'Copy'} ${dialog.entries.length === 1 ? dialog.entries[0]!.name : countOf(dialog.entries.length, 'item')} to…`}
        submitLabel={dialog.kind === 'move' ? 'Move here' : 'Copy here'}
        folders={(dialog.kind === 'move'
          ? moveTargets(folders, dialog.entries)
          : folders.filter((f) => !dialog.entries.some((s) => s.type === 'directory' && isWithin(f, s.path)))
        ).filter((f) => mayCreate(f))}
        initial={folder}
        onSubmit={async (to) => {
          if (dialog.kind === 'move') await act.moveInto(root, dialog.entries, to)
          else await act.copyInto(root, dialog.entries, to)
          onDone()
        }}
        onClose={onClose}
      />
    )
  return null
}
