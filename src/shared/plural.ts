/**
 * Counted nouns with the language's plural rules (Intl.PluralRules) instead of "document(s)": one
 * helper for every count the console and the server's messages show (issue 11). English only for now,
 * like every other text; the rules object is what a translation would swap.
 */
// Marked pure: a `new` at module level otherwise counts as a side effect, and every message file that
// imports countOf would then be loaded by any page importing src/shared/texts (issue 20).
const rules = /* @__PURE__ */ new Intl.PluralRules('en')

/**
 * An integer with its digits grouped by threes ("10,000"), exactly as `toLocaleString('en')` writes it,
 * without ICU's number formatter: its first use in a page costs ~10 ms (the locale data it loads), and
 * an offline start's first screen shows a count (issue 20, docs/contributing/performance.md). Other numbers go to ICU.
 */
export function grouped(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString('en')
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',')
}

/** "1 document", "3 documents", "1,841 changes"; `other` for irregular plurals ("entries"). */
export function countOf(n: number, one: string, other = `${one}s`): string {
  return `${grouped(n)} ${rules.select(n) === 'one' ? one : other}`
}

/** "3 of 52 lines": a filtered count against its total, the noun agreeing with the total. */
export function countOfTotal(shown: number, total: number, one: string, other = `${one}s`): string {
  return `${grouped(shown)} of ${countOf(total, one, other)}`
}
