/** The current time, re-read every `everyMs`, so "in 4 minutes" and next-run previews move on. */
import { useEffect, useState } from 'react'

export function useNow(everyMs: number): Date {
  const [now, setNow] = useState(() => new Date())
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), everyMs)
    return () => clearInterval(timer)
  }, [everyMs])
  return now
}
