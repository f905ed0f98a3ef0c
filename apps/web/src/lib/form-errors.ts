import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError } from './api';

/**
 * Marks the fields a server refusal names (a 400's failing fields, a 409 on a taken name or a
 * wrong old password) on the open form, so the message sits where the fix is. The toast shows the
 * message as well. Other failures leave the form as it is.
 */
export function markFieldErrors<T extends FieldValues>(err: unknown, setError: UseFormSetError<T>) {
  if (!(err instanceof ApiError)) return;
  for (const d of err.details) setError(d.path as Path<T>, { message: d.message });
}
