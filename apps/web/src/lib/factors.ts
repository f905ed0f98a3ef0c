/**
 * The signed-in account's second factors (`account/me/factors`): the shell reads them to know
 * whether the owner requires one this account lacks (EnrolmentGate.tsx), the profile's security
 * section to show them.
 */
import { useQuery } from '@tanstack/react-query';
import { PATHS, myFactors } from '@master-admin/contract';
import { api } from './api';
import { session } from './session';
import { appQueryClient } from '../app/app-providers';

/** Kept per sign-in (its token), as the grants are. */
export const factorKeys = { mine: ['me', 'factors'] as const };

/** Factors known before the first render (the preload script read them), when they are. */
export function seedFactors(early: unknown) {
  const parsed = myFactors.safeParse(early);
  if (parsed.success)
    appQueryClient().setQueryData([...factorKeys.mine, session.token()], parsed.data);
}

export function useMyFactors() {
  return useQuery({
    queryKey: [...factorKeys.mine, session.token()],
    queryFn: () => api.get(PATHS.myFactors, myFactors),
  });
}
