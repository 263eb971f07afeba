/**
 * Counted nouns with the language's plural rules (Intl.PluralRules) instead of "document(s)": one
 * helper for every count the console and the server's messages show (issue 11). English only for now,
 * like every other text; the rules object is what a translation would swap.
 */
const rules = new Intl.PluralRules('en')

/** "1 document", "3 documents", "1,841 changes"; `other` for irregular plurals ("entries"). */
export function countOf(n: number, one: string, other = `${one}s`): string {
  return `${n.toLocaleString('en')} ${rules.select(n) === 'one' ? one : other}`
}

/** "3 of 52 lines": a filtered count against its total, the noun agreeing with the total. */
export function countOfTotal(shown: number, total: number, one: string, other = `${one}s`): string {
  return `${shown.toLocaleString('en')} of ${countOf(total, one, other)}`
}
