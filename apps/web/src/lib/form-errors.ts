import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError } from './api';
import { markShown } from './toast';

/**
 * Marks the fields a server refusal names (a 400's failing fields, a 409 on a taken name or a
 * wrong old password) on the open form, so the message sits where the fix is. Answers the fields
 * marked; other failures leave the form as it is. When every field named is one the form shows
 * (`shown`), the failure is said there alone: it is marked shown, so no toast repeats it (issue
 * #35: one message per failure).
 */
export function markFieldErrors<T extends FieldValues>(
  err: unknown,
  setError: UseFormSetError<T>,
  shown?: (field: string) => boolean,
): string[] {
  if (!(err instanceof ApiError)) return [];
  for (const d of err.details) setError(d.path as Path<T>, { message: d.message });
  const fields = err.details.map((d) => d.path);
  if (shown && fields.length > 0 && fields.every(shown)) markShown(err);
  return fields;
}
