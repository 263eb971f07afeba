/**
 * The range choice shared by the Pages and Users dashboards: moving from one to the other keeps it
 * for the tab's lifetime (a module variable, no storage: a new tab starts at the default).
 */
import { useState } from 'react'
import { DEFAULT_RANGE, type RangeChoice } from './range'

let remembered: RangeChoice = DEFAULT_RANGE

export function useRange(): [RangeChoice, (next: RangeChoice) => void] {
  const [range, setRange] = useState(remembered)
  return [
    range,
    (next) => {
      remembered = next
      setRange(next)
    },
  ]
}
