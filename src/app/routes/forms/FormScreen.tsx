/**
 * /forms/{path} (SPEC §2: no auth flag): the editor for those who may change the form
 * (`forms/{path}:u`, with the form in their mirror), else the form itself to fill — for members of
 * its group, and for anyone, logged out too, when it is an anyone-with-the-link form.
 */
import { FORMS } from '../../../shared/forms'
import { useRow } from '../../data/collection-rows'
import type { ScreenProps } from '../../routing/table'
import { useCan } from '../../session/use-can'
import { useSession } from '../../session/use-session'
import { FillPage } from './FillPage'
import { FormEditor } from './FormEditor'
import '../../components/ui.css'
import '../../components/records.css'
import './forms.css'

export function FormScreen({ params }: ScreenProps) {
  const id = params.rest ?? ''
  const session = useSession()
  const allowed = useCan()
  const editor = session.status === 'authenticated' && allowed(`${FORMS}/${id}:u`)
  if (!editor) return <FillPage id={id} />
  return <EditorOrFill id={id} />
}

function EditorOrFill({ id }: { id: string }) {
  const row = useRow(FORMS, id)
  // Not in this device's mirror (yet): fill it from the server like anyone else.
  if (row === null) return <FillPage id={id} />
  return <FormEditor id={id} row={row} />
}
