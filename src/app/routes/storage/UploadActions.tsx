/**
 * The file browser's header buttons, shown where the session may create: upload files, upload a
 * folder (hidden file inputs, opened by the buttons; tests set them directly by their test ids) and
 * a new folder.
 */
import { FolderPlus, FolderUp, Upload } from 'lucide-react'
import { type ChangeEvent, useRef } from 'react'
import type { StorageRoot } from '../../../shared/storage'
import { useServerReachable } from '../../sync-ui/use-server-reachable'
import * as act from './actions'

export function UploadActions({
  root,
  folder,
  knownFolders,
  onNewFolder,
}: {
  root: StorageRoot
  /** Where the files go: the folder on screen. */
  folder: string
  knownFolders: ReadonlySet<string>
  onNewFolder: () => void
}) {
  const filesInput = useRef<HTMLInputElement>(null)
  const folderInput = useRef<HTMLInputElement>(null)
  const reachable = useServerReachable()
  const onPicked = (e: ChangeEvent<HTMLInputElement>) => {
    void act.upload(root, folder, act.pickedOfInput(e.target.files), knownFolders, reachable)
    e.target.value = ''
  }
  return (
    <div className="actions">
      <button type="button" className="button button-primary" onClick={() => filesInput.current?.click()}>
        <Upload size={16} aria-hidden="true" /> Upload files
      </button>
      <button type="button" className="button button-quiet" onClick={() => folderInput.current?.click()}>
        <FolderUp size={16} aria-hidden="true" /> Upload folder
      </button>
      <button type="button" className="button button-quiet" onClick={onNewFolder}>
        <FolderPlus size={16} aria-hidden="true" /> New folder
      </button>
      <input
        ref={filesInput}
        type="file"
        multiple
        className="visually-hidden"
        tabIndex={-1}
        aria-label="Files to upload"
        data-testid="upload-files"
        onChange={onPicked}
      />
      <input
        ref={folderInput}
        type="file"
        multiple
        className="visually-hidden"
        tabIndex={-1}
        aria-label="Folder to upload"
        data-testid="upload-folder"
        {...({ webkitdirectory: '' } as Record<string, string>)}
        onChange={onPicked}
      />
    </div>
  )
}
