/**
 * The signed-in account's grants as the preload script read them (signed-in-first-screen.ts),
 * beside the shell's code: the shell shows a screen only once it knows the account may view it
 * (components/AccessDenied.tsx), and this keeps that from costing a round trip after the code.
 */
import { myPermissions, type MyPermissions } from '@master-admin/contract';

/** The global the preload script puts the answer's promise in. */
export const EARLY_GRANTS = '__masterAdminGrants';

/** The early answer, once, if the preload script made the call and it succeeded. */
export async function takeEarlyGrants(): Promise<MyPermissions | undefined> {
  const holder = globalThis as Record<string, unknown>;
  const pending = holder[EARLY_GRANTS] as Promise<unknown> | undefined;
  delete holder[EARLY_GRANTS];
  const parsed = myPermissions.safeParse(await pending);
  return parsed.success ? parsed.data : undefined;
}
