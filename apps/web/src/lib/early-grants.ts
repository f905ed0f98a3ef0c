/**
 * What the preload script read beside the shell's code (signed-in-first-screen.ts): the signed-in
 * account's grants and second factors. The shell shows a screen only once it knows the account may
 * view it (components/AccessDenied.tsx) and needs no second factor first (EnrolmentGate.tsx);
 * reading them early keeps that from costing a round trip after the code.
 */
import type { z } from 'zod';
import { myFactors, myPermissions } from '@master-admin/contract';

/** The globals the preload script puts the answers' promises in. */
export const EARLY_GRANTS = '__masterAdminGrants';
export const EARLY_FACTORS = '__masterAdminFactors';

/** An early answer, once, if the preload script made the call and it succeeded. */
async function takeEarly<S extends z.ZodType>(
  global: string,
  schema: S,
): Promise<z.output<S> | undefined> {
  const holder = globalThis as Record<string, unknown>;
  const pending = holder[global] as Promise<unknown> | undefined;
  delete holder[global];
  const parsed = schema.safeParse(await pending);
  return parsed.success ? parsed.data : undefined;
}

export const takeEarlyGrants = () => takeEarly(EARLY_GRANTS, myPermissions);
export const takeEarlyFactors = () => takeEarly(EARLY_FACTORS, myFactors);
