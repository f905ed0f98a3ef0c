/**
 * What the preload script read beside the shell's code (signed-in-first-screen.ts): the signed-in
 * account's grants and second factors. The shell shows a screen only once it knows the account may
 * view it (components/AccessDenied.tsx) and needs no second factor first (EnrolmentGate.tsx);
 * reading them early keeps that from costing a round trip after the code.
 */
import { myPermissions, type MyPermissions } from '@master-admin/contract';

/** The globals the preload script puts the answers' promises in. */
export const EARLY_GRANTS = '__masterAdminGrants';
export const EARLY_FACTORS = '__masterAdminFactors';

/** An early answer's JSON, once, if the preload script made the call and it succeeded. */
async function takeEarly(global: string): Promise<unknown> {
  const holder = globalThis as Record<string, unknown>;
  const pending = holder[global] as Promise<unknown> | undefined;
  delete holder[global];
  return pending;
}

export async function takeEarlyGrants(): Promise<MyPermissions | undefined> {
  const parsed = myPermissions.safeParse(await takeEarly(EARLY_GRANTS));
  return parsed.success ? parsed.data : undefined;
}

/** The factors' answer as read, checked by the shell (lib/factors.ts) whose code has the schema. */
export const takeEarlyFactors = () => takeEarly(EARLY_FACTORS);
