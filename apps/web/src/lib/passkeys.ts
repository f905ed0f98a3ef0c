/**
 * What the screens need to know of passkeys before any is used: whether this browser has them,
 * and the failure a ceremony reports. The ceremonies themselves (webauthn.ts, with
 * @simplewebauthn/browser) load only when a passkey is used or added.
 */

/** @simplewebauthn/browser's browserSupportsWebAuthn(), without loading the library for it. */
export function passkeysSupported(): boolean {
  return typeof globalThis.PublicKeyCredential === 'function';
}

/**
 * Whether this browser can offer passkeys in a sign-in field's autofill (WebAuthn's conditional
 * mediation), asked of the browser without loading the library.
 */
export async function passkeyAutofillSupported(): Promise<boolean> {
  const credential = globalThis.PublicKeyCredential as
    { isConditionalMediationAvailable?: () => Promise<boolean> } | undefined;
  return (await credential?.isConditionalMediationAvailable?.().catch(() => false)) ?? false;
}

/** The browser's passkey prompt failed or was dismissed; the message says so as a person reads it. */
export class PasskeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PasskeyError';
  }
}

/** Loads the ceremonies (a chunk of their own). */
export const loadWebAuthn = () => import('./webauthn');
