/**
 * The peer of the offline cold start: an online-only page (React, like the console) that fetches the
 * first page of the same list from the server and renders it as table rows. The session token comes in
 * the URL hash, so the page needs no login round trip of its own, which favours this peer.
 */
import { useEffect, useState } from 'react'
import { createRoot } from 'react-dom/client'

type Doc = Record<string, unknown> & { _id: string }

const [collection = 'bench', token = ''] = location.hash.slice(1).split(':')

function List() {
  const [rows, setRows] = useState<Doc[] | null>(null)
  useEffect(() => {
    void fetch(`/api/data/${collection}?limit=50&sort=_id`, { headers: { authorization: `Bearer ${token}` } })
      .then((r) => r.json() as Promise<Doc[]>)
      .then(setRows)
  }, [])
  if (!rows) return <p>Loading…</p>
  return (
    <table>
      <tbody>
        {rows.map((d) => (
          <tr key={d._id} className="vt-row">
            <td>{d._id}</td>
            <td>{String(d.name ?? '')}</td>
            <td>{String(d._updated ?? '')}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

createRoot(document.getElementById('root')!).render(<List />)
