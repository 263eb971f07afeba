/**
 * The one password policy (NIST SP 800-63B §5.1.1, issue 10 #11), used by the server on every path
 * that sets a password and by the console forms before they submit, so both refuse the same ones:
 * a length between PASSWORD_MIN_LENGTH and PASSWORD_MAX_LENGTH characters (Unicode code points, as
 * NIST counts them), and a zxcvbn score of at least PASSWORD_MIN_SCORE, which refuses the common and
 * breached passwords of its dictionary, keyboard walks, sequences, repeats and the account's own words
 * (username, name, e-mail). No composition rules: NIST advises against them.
 *
 * The dictionary is large (about 1 MB), so it is loaded by a dynamic import the first time a password
 * is checked: the browser fetches it as its own chunk when a password field is used, never with the
 * login bundle, and the server loads it once.
 */
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, PASSWORD_MIN_SCORE } from './constants'
import { PASSWORD_TEXT } from './texts'

/** What the strength estimate says about one password. */
export interface PasswordStrength {
  score: number
  /** zxcvbn's warning key, e.g. 'userInputs' when the password is made of the account's words. */
  warning: string | null
}

export type PasswordScorer = (password: string, userInputs: readonly string[]) => PasswordStrength

let loading: Promise<PasswordScorer> | null = null

/** Loads zxcvbn and its common-password dictionary once; later calls share the same promise. */
export function loadPasswordScorer(): Promise<PasswordScorer> {
  loading ??= (async () => {
    const [{ ZxcvbnFactory }, common] = await Promise.all([
      import('@zxcvbn-ts/core'),
      import('@zxcvbn-ts/language-common'),
    ])
    const zxcvbn = new ZxcvbnFactory({
      dictionary: { ...common.dictionary },
      graphs: common.adjacencyGraphs,
      maxLength: PASSWORD_MAX_LENGTH,
    })
    return (password, userInputs) => {
      const result = zxcvbn.check(password, [...userInputs])
      return { score: result.score, warning: result.feedback.warning ?? null }
    }
  })()
  loading.catch(() => {
    loading = null
  })
  return loading
}

/** The length rules alone: cheap, synchronous, and what a form can say before the dictionary loads. */
export function passwordLengthProblem(password: string): string | null {
  const length = [...password].length
  if (length < PASSWORD_MIN_LENGTH) return PASSWORD_TEXT.tooShort(PASSWORD_MIN_LENGTH)
  if (length > PASSWORD_MAX_LENGTH) return PASSWORD_TEXT.tooLong(PASSWORD_MAX_LENGTH)
  return null
}

/**
 * What is wrong with `password` under the policy, or null when it may be used. `userInputs` are the
 * account's own words (username, name, e-mail); blank ones are ignored.
 */
export function passwordProblem(
  password: string,
  userInputs: readonly (string | null | undefined)[],
  scorer: PasswordScorer,
): string | null {
  const length = passwordLengthProblem(password)
  if (length) return length
  const words = userInputs.filter((w): w is string => typeof w === 'string' && w.trim() !== '')
  // An e-mail counts as its whole and as its local part, the part people reuse.
  const context = words.flatMap((w) => (w.includes('@') ? [w, w.split('@')[0]!] : [w]))
  const { score, warning } = scorer(password, context)
  if (score >= PASSWORD_MIN_SCORE) return null
  return warning === 'userInputs' ? PASSWORD_TEXT.tooPersonal : PASSWORD_TEXT.tooCommon
}

/** passwordProblem after loading the dictionary (the first call waits for it). */
export async function checkPassword(
  password: string,
  userInputs: readonly (string | null | undefined)[] = [],
): Promise<string | null> {
  const length = passwordLengthProblem(password)
  if (length) return length
  return passwordProblem(password, userInputs, await loadPasswordScorer())
}
