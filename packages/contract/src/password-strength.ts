/**
 * The one rule for a new password's strength (API.md: "New passwords … are refused … when weak"),
 * used by the server's check and the web app's hint as the person types. zxcvbn-ts with its
 * common-password dictionary and English sentences (about 0.4 MB): loaded on first use, so the web app
 * fetches it only when a password field is typed in, and the sign-in screen never.
 */
import { PASSWORD_MAX, PASSWORD_MIN } from './auth.ts';

/** zxcvbn's score (0..4) a new password must reach: 3, "safely unguessable" (10^8 guesses). */
export const PASSWORD_MIN_SCORE = 3;

type Checker = { check(password: string, userInputs?: string[]): ZxcvbnResult };
type ZxcvbnResult = { score: number; feedback: { warning: string | null; suggestions: string[] } };

let checker: Promise<Checker> | undefined;

function loadChecker(): Promise<Checker> {
  checker ??= (async () => {
    const [{ ZxcvbnFactory }, common, en] = await Promise.all([
      import('@zxcvbn-ts/core'),
      import('@zxcvbn-ts/language-common'),
      // English sentences for the reasons; not its dictionaries of names and words (1.2 MB more,
      // and compressed, so no smaller on the wire): the common-password list is the one that
      // matters, and the personal words are checked apart.
      import('@zxcvbn-ts/language-en/dist/translations.mjs'),
    ]);
    return new ZxcvbnFactory({
      dictionary: common.dictionary,
      graphs: common.adjacencyGraphs,
      translations: en.default,
    });
  })();
  return checker;
}

/** The words of an account's email, name and phone a password must not be built from. */
export function personalWords(account: {
  email?: string | null;
  name?: string | null;
  phoneNumber?: string | null;
}): string[] {
  const words = new Set<string>();
  for (const value of [account.email, account.name, account.phoneNumber]) {
    if (!value) continue;
    words.add(value.toLowerCase());
    for (const part of value.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
      if (part.length >= 3) words.add(part);
    }
  }
  return [...words];
}

export type PasswordStrength = { ok: boolean; score: number; reason: string | null };

/**
 * How guessable `password` is for the account it is for: `ok` when it may be set, else `reason`
 * (a sentence to show under the field).
 */
export async function passwordStrength(
  password: string,
  account: { email?: string | null; name?: string | null; phoneNumber?: string | null } = {},
): Promise<PasswordStrength> {
  if (password.length < PASSWORD_MIN) {
    return { ok: false, score: 0, reason: `Must be at least ${PASSWORD_MIN} characters` };
  }
  if (password.length > PASSWORD_MAX) {
    return { ok: false, score: 0, reason: `Must be at most ${PASSWORD_MAX} characters` };
  }
  const words = personalWords(account);
  // zxcvbn counts a personal word as one cheap guess; a password that is little more than such
  // words is refused outright, with a reason the person understands.
  let rest = password.toLowerCase();
  for (const word of words) rest = rest.replaceAll(word, '');
  if (rest !== password.toLowerCase() && rest.replace(/[^\p{L}\p{N}]/gu, '').length < 6) {
    return {
      ok: false,
      score: 0,
      reason: 'Must not be built from the account’s name, email or phone',
    };
  }
  // zxcvbn's cost grows with length; what it adds beyond 100 characters changes no score.
  const result = (await loadChecker()).check(password.slice(0, 100), words);
  if (result.score >= PASSWORD_MIN_SCORE) return { ok: true, score: result.score, reason: null };
  const reason =
    result.feedback.warning ?? result.feedback.suggestions[0] ?? 'Add another word or two';
  return { ok: false, score: result.score, reason: `Too easy to guess. ${reason}` };
}
