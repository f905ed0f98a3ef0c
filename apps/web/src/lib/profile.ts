/** The signed-in account's own profile (`account/admin-detail`): the profile page, the prompts. */
import { useQuery } from '@tanstack/react-query';
import { PATHS, profile, type Profile } from '@master-admin/contract';
import { api } from './api';

export function useProfile(enabled = true) {
  return useQuery<Profile>({
    queryKey: ['account', 'me'],
    queryFn: () => api.get(PATHS.adminDetail, profile),
    enabled,
  });
}
