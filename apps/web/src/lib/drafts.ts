/**
 * Drafts of long forms (issue 23): what a person typed in a form, kept in this browser while they
 * type, so a crash, a closed tab or a sign-out loses nothing; offered back when the same form is
 * opened again for the same row. Kept per account (the token's subject) + form + row ("new" for a
 * row not created yet): another account signed in on the same computer never sees them, and a
 * sign-out keeps them for when the same account signs in again. Files are never kept (they cannot
 * be stored, and are large).
 */
import { session } from './session';

const PREFIX = 'draft:';

/** A kept draft: the form's values, and the row as the form was opened with (its version, values). */
export type Draft = {
  values: Record<string, unknown>;
  /** The values the form was opened with: a later conflict compares against them. */
  base: Record<string, unknown>;
  /** The row's version the form was opened at; undefined for a new row. */
  version: number | undefined;
  /** When it was kept (ISO). */
  savedAt: string;
};

/** Which draft: the form's name and the row's id (undefined: a new row). */
export type DraftKey = { form: string; id?: number | string | undefined };

/**
 * Where the signed-in account's draft of this form and row is kept; null when no account is
 * known (no draft is kept then). Taken once when a form opens, so a draft written as the form goes
 * (a sign-out) still lands under the account that typed it.
 */
export function draftStorageKey(key: DraftKey): string | null {
  const account = session.accountId();
  if (!account) return null;
  return `${PREFIX}${account}:${key.form}:${key.id ?? 'new'}`;
}

/** Values as JSON can keep them: files and anything else JSON cannot hold are left out. */
function keepable(values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(values)) {
    if (typeof Blob !== 'undefined' && value instanceof Blob) continue;
    if (value === undefined || typeof value === 'function') continue;
    out[name] = value;
  }
  return JSON.parse(JSON.stringify(out)) as Record<string, unknown>;
}

export const drafts = {
  /** The draft kept at `k` (draftStorageKey), if any. */
  read(k: string | null): Draft | undefined {
    if (!k) return undefined;
    try {
      const draft = JSON.parse(localStorage.getItem(k) ?? 'null') as Draft | null;
      if (!draft || typeof draft.values !== 'object' || typeof draft.savedAt !== 'string') {
        return undefined;
      }
      return draft;
    } catch {
      return undefined;
    }
  },
  /** Keeps the values typed so far (files left out). */
  write(k: string | null, draft: Omit<Draft, 'savedAt'>): void {
    if (!k) return;
    const kept: Draft = {
      values: keepable(draft.values),
      base: keepable(draft.base),
      version: draft.version,
      savedAt: new Date().toISOString(),
    };
    try {
      localStorage.setItem(k, JSON.stringify(kept));
    } catch {
      // Storage full or refused (private mode): the form still works, without a draft.
    }
  },
  /** Forgets the draft (saved, or discarded). */
  clear(k: string | null): void {
    if (k) localStorage.removeItem(k);
  },
};
