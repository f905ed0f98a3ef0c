/**
 * The passkey ceremonies (WebAuthn, through @simplewebauthn/browser): the server's options, the
 * browser's prompt, the server's check. Loaded on first use (passkeys.ts, loadWebAuthn), so neither
 * the sign-in screen's first paint nor the signed-in shell carries the library.
 */
import {
  WebAuthnAbortService,
  startAuthentication,
  startRegistration,
  type PublicKeyCredentialCreationOptionsJSON,
} from '@simplewebauthn/browser';
import {
  PATHS,
  loginResponse,
  passkeyCreated,
  reauthAnswer,
  webauthnOptions,
  type LoginResponse,
} from '@master-admin/contract';
import { api } from './api';
import { PasskeyError } from './passkeys';

/** What a failed prompt means for the person (WebAuthn's error names, or the library's codes). */
function promptFailure(err: unknown): PasskeyError {
  const { name, code, message } = (err ?? {}) as { name?: string; code?: string; message?: string };
  if (code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED' || name === 'InvalidStateError') {
    return new PasskeyError('This device already holds a passkey for your account.');
  }
  if (name === 'NotAllowedError' || name === 'AbortError' || code === 'ERROR_CEREMONY_ABORTED') {
    return new PasskeyError('The passkey prompt was closed or timed out. Nothing was changed.');
  }
  if (
    name === 'SecurityError' ||
    code === 'ERROR_INVALID_DOMAIN' ||
    code === 'ERROR_INVALID_RP_ID'
  ) {
    return new PasskeyError(
      'Passkeys do not work on this address. Open the back-office at its own address over HTTPS.',
    );
  }
  return new PasskeyError(message || 'The passkey could not be used.');
}

/**
 * Signs in with a passkey: with `email`, one of that account's; without, any this device holds
 * for the site (the browser lists them).
 */
export async function signInWithPasskey(email?: string): Promise<LoginResponse> {
  // The prompt takes the autofill's place: the library aborts the browser's pending request.
  autofill.run += 1;
  autofill.waiting = false;
  const options = await api.json(
    'POST',
    PATHS.passkeyLoginOptions,
    webauthnOptions,
    email ? { email } : {},
  );
  const response = await startAuthentication({ optionsJSON: options }).catch((err: unknown) => {
    throw promptFailure(err);
  });
  return api.json('POST', PATHS.passkeyLoginVerify, loginResponse, { response });
}

/** The autofill offer under way: its number (a newer offer or a prompt ends it), and whether it
 * is now waiting in the browser (only then is there a request of its own to abort). */
const autofill = { run: 0, waiting: false };

/**
 * Offers this device's passkeys for the site in the sign-in field's autofill (WebAuthn's
 * conditional mediation; the field's autocomplete ends in `webauthn`). Resolves with the sign-in
 * once the person picks one; with undefined when the offer ended without that: cancelled
 * (cancelPasskeyAutofill, or the passkey button's prompt took its place), or refused by the browser
 * or the network before anyone saw it (no passkey here, a host the passkeys are not for). Nobody
 * asked for the offer, so only the sign-in of a passkey that was picked can fail aloud.
 */
export async function offerPasskeyAutofill(): Promise<LoginResponse | undefined> {
  const run = ++autofill.run;
  let response;
  try {
    const options = await api.json('POST', PATHS.passkeyLoginOptions, webauthnOptions, {});
    if (run !== autofill.run) return undefined;
    autofill.waiting = true;
    response = await startAuthentication({ optionsJSON: options, useBrowserAutofill: true });
  } catch {
    return undefined;
  } finally {
    if (run === autofill.run) autofill.waiting = false;
  }
  return api.json('POST', PATHS.passkeyLoginVerify, loginResponse, { response });
}

/** Ends the autofill offer, if one is under way (leaving a prompt that replaced it alone). */
export function cancelPasskeyAutofill() {
  autofill.run += 1;
  if (autofill.waiting) WebAuthnAbortService.cancelCeremony();
  autofill.waiting = false;
}

/** Makes a passkey on this device for the signed-in account, named `name`. */
export async function addPasskey(name: string) {
  const options = await api.json('POST', PATHS.passkeyRegisterOptions, webauthnOptions, {});
  const response = await startRegistration({
    optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON,
  }).catch((err: unknown) => {
    throw promptFailure(err);
  });
  return api.json('POST', PATHS.passkeyRegisterVerify, passkeyCreated, { name, response });
}

/** Proves who the signed-in person is with one of the account's passkeys (API.md "Proof of presence"). */
export async function proveWithPasskey() {
  const options = await api.json('POST', PATHS.reauthPasskeyOptions, webauthnOptions, {});
  const response = await startAuthentication({ optionsJSON: options }).catch((err: unknown) => {
    throw promptFailure(err);
  });
  return api.json('POST', PATHS.reauth, reauthAnswer, { response });
}
