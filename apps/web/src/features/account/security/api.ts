/**
 * The calls of the profile's security section (API.md, "Second factors, passkeys, sessions"):
 * the authenticator app, passkeys, and the account's signed-in sessions.
 */
import { useQuery } from '@tanstack/react-query';
import {
  PATHS,
  messageResponse,
  passkeyList,
  sessionList,
  totpConfirmed,
  totpSetup,
  type TotpSetup,
} from '@master-admin/contract';
import { api } from '../../../lib/api';
import { factorKeys } from '../../../lib/factors';
import { permissionKeys } from '../../../lib/permissions';
import { useApiMutation } from '../../../lib/mutation';
import { loadWebAuthn } from '../../../lib/passkeys';

export const securityKeys = {
  passkeys: ['me', 'passkeys'] as const,
  sessions: ['me', 'sessions'] as const,
};

/**
 * What a factor added or removed changes: the factors, the sessions (one limited to enrolment is
 * no longer), and the grants (all of them again once the owner's requirement is met).
 */
const FACTOR_CHANGES = [factorKeys.mine, permissionKeys.mine, securityKeys.sessions] as const;

/** Starts setting up the authenticator app: its secret, not active until a code confirms it. */
export function useStartTotp() {
  return useApiMutation({
    // No message to show: the dialog with the QR code opens instead.
    mutationFn: (): Promise<TotpSetup & { message?: string }> => api.post(PATHS.totp, totpSetup),
  });
}

/** Confirms the app with a code it shows: on from now on, with the recovery codes (shown once). */
export function useConfirmTotp() {
  return useApiMutation({
    mutationFn: (code: string) => api.post(PATHS.totpConfirm, totpConfirmed, { code }),
    invalidates: FACTOR_CHANGES,
  });
}

/** New recovery codes (shown once); the old ones stop working. */
export function useNewRecoveryCodes() {
  return useApiMutation({
    mutationFn: () => api.post(PATHS.recoveryCodes, totpConfirmed),
    invalidates: [factorKeys.mine],
  });
}

/** Turns the app off, with a code it shows or a recovery code. */
export function useRemoveTotp() {
  return useApiMutation({
    mutationFn: (code: string) => api.json('DELETE', PATHS.totp, messageResponse, { code }),
    invalidates: FACTOR_CHANGES,
  });
}

export function usePasskeys(enabled: boolean) {
  return useQuery({
    queryKey: securityKeys.passkeys,
    queryFn: () => api.get(PATHS.passkeys, passkeyList),
    enabled,
  });
}

/** Makes a passkey on this device (the browser asks how), named as the person chose. */
export function useAddPasskey() {
  return useApiMutation({
    mutationFn: async (name: string) => (await loadWebAuthn()).addPasskey(name),
    invalidates: [...FACTOR_CHANGES, securityKeys.passkeys],
  });
}

export function useRenamePasskey() {
  return useApiMutation({
    mutationFn: ({ id, name }: { id: number; name: string }) =>
      api.patch(PATHS.passkey(id), messageResponse, { name }),
    invalidates: [securityKeys.passkeys],
  });
}

export function useRemovePasskey() {
  return useApiMutation({
    mutationFn: (id: number) => api.delete(PATHS.passkey(id), messageResponse),
    invalidates: [...FACTOR_CHANGES, securityKeys.passkeys],
  });
}

export function useMySessions() {
  return useQuery({
    queryKey: securityKeys.sessions,
    queryFn: () => api.get(PATHS.mySessions, sessionList),
  });
}

/** Ends one of the account's other sessions (this device's own ends with signing out). */
export function useEndMySession() {
  return useApiMutation({
    mutationFn: (id: number) => api.delete(PATHS.mySession(id), messageResponse),
    invalidates: [securityKeys.sessions],
  });
}

export function useEndOtherSessions() {
  return useApiMutation({
    mutationFn: () => api.delete(PATHS.mySessions, messageResponse),
    invalidates: [securityKeys.sessions],
  });
}
