import { MESSAGES } from '@master-admin/contract';
import { ApiError } from '../../lib/api';
import { PasskeyError } from '../../lib/passkeys';

/** "30 seconds", "2 minutes", "1 hour": a wait as a person says it, rounded up. */
export function waitText(seconds: number): string {
  const unit = (n: number, name: string) => `${n} ${name}${n === 1 ? '' : 's'}`;
  if (seconds < 60) return unit(Math.max(1, seconds), 'second');
  if (seconds < 3600) return unit(Math.ceil(seconds / 60), 'minute');
  return unit(Math.ceil(seconds / 3600), 'hour');
}

/**
 * Sign-in's own error texts (spec §8): the server's message, with how long to wait when it
 * throttles; what the browser's passkey prompt reports; else "Invalid credentials or somthing
 * went wrong!".
 */
export function signInError(err: unknown): string {
  if (err instanceof PasskeyError) return err.message;
  if (err instanceof ApiError) {
    if (err.status === 429 && err.retryAfter !== undefined) {
      const message = (err.message || MESSAGES.tooManyAttempts).replace(/\.$/, '');
      return `${message}. Try again in ${waitText(err.retryAfter)}.`;
    }
    if (err.status !== undefined) return err.message || MESSAGES.anErrorOccurred;
    if (err.message === MESSAGES.invalidResponse) return err.message;
  }
  return MESSAGES.loginNetworkError;
}
