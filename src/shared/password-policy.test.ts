/**
 * The shared password policy (NIST SP 800-63B): the length bounds in code points, the common-password
 * and pattern check through zxcvbn, the account's own words, and that the documented sample
 * passwords pass it.
 */
import { describe, expect, it } from 'vitest'
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './constants'
import { checkPassword, loadPasswordScorer, passwordLengthProblem, passwordProblem } from './password-policy'
import { PASSWORD_TEXT } from './texts'

describe('password policy', () => {
  it('refuses what is too short or too long, counting characters rather than bytes', async () => {
    for (const short of ['', 'a', '123', 'Zq7#', 'x'.repeat(PASSWORD_MIN_LENGTH - 1)]) {
      expect(await checkPassword(short)).toBe(PASSWORD_TEXT.tooShort(PASSWORD_MIN_LENGTH))
    }
    expect(passwordLengthProblem('x'.repeat(PASSWORD_MAX_LENGTH + 1))).toBe(
      PASSWORD_TEXT.tooLong(PASSWORD_MAX_LENGTH),
    )
    // Eight emoji are eight characters (16 UTF-16 units): the length is what the person typed.
    expect(passwordLengthProblem('🦊🐙🦉🐝🦀🐢🦎🐬')).toBeNull()
    expect(passwordLengthProblem('🦊🐙🦉')).toBe(PASSWORD_TEXT.tooShort(PASSWORD_MIN_LENGTH))
  })

  it('refuses common and breached passwords, keyboard walks, sequences and repeats', async () => {
    for (const weak of [
      'password',
      'password1',
      '12345678',
      'qwertyuiop',
      'iloveyou',
      'aaaaaaaaaa',
      'abcdefgh',
    ]) {
      expect(await checkPassword(weak), weak).toBe(PASSWORD_TEXT.tooCommon)
    }
  })

  it('refuses a password made of the account’s own words', async () => {
    expect(await checkPassword('katarina1', ['katarina'])).toBe(PASSWORD_TEXT.tooPersonal)
    expect(await checkPassword('kowalski99', ['kat', 'Kat Kowalski', 'kowalski99@example.com'])).toBe(
      PASSWORD_TEXT.tooPersonal,
    )
  })

  it('accepts long and uncommon passwords without any character-class rule', async () => {
    for (const strong of [
      'correct horse battery staple',
      'mona-orchid-tundra',
      'Tr0ub4dour&3x',
      'n8#Lq2!vXz',
    ]) {
      expect(await checkPassword(strong, ['mona']), strong).toBeNull()
    }
    // The documented sample accounts' passwords (README) and the test fixtures' admin passwords pass.
    for (const user of ['alice', 'bob', 'carol']) {
      expect(await checkPassword(`${user}-password`, [user, `${user}@example.com`])).toBeNull()
    }
  })

  it('is synchronous once the dictionary is loaded, for a form that checks as the user types', async () => {
    const scorer = await loadPasswordScorer()
    expect(passwordProblem('password', [], scorer)).toBe(PASSWORD_TEXT.tooCommon)
    expect(passwordProblem('mona-orchid-tundra', [null, undefined, ''], scorer)).toBeNull()
  })
})
