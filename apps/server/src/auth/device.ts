/**
 * A device as a person recognises it ("Chrome 142 on macOS"), from a request's user agent: the
 * sessions list and the audit log's security events name devices this way.
 */
import Bowser from 'bowser';

const MAX = 120;

export function deviceLabel(userAgent: string | null | undefined): string {
  if (!userAgent) return 'Unknown device';
  let parsed;
  try {
    parsed = Bowser.parse(userAgent);
  } catch {
    parsed = undefined;
  }
  const browser = parsed?.browser.name;
  const major = parsed?.browser.version?.split('.')[0];
  const os = parsed?.os.name;
  const model = parsed?.platform.model;
  if (!browser && !os) return userAgent.slice(0, MAX);
  const who = [browser ?? 'Unknown browser', major].filter(Boolean).join(' ');
  const where = [model, os].filter(Boolean).join(', ');
  return (where ? `${who} on ${where}` : who).slice(0, MAX);
}
