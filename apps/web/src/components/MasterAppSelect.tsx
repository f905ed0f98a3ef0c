import { Select, type SelectProps } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { PATHS, masterAppOptions } from '@master-admin/contract';
import { api } from '../lib/api';

/** The master apps to choose from (with their time zones), for filters and forms in every area. */
export function useMasterAppOptions() {
  return useQuery({
    queryKey: ['master-apps', 'options'],
    queryFn: () => api.get(PATHS.masterAppOptions, masterAppOptions),
    // Shown at once from the cache, and asked again whenever a picker appears: an app created
    // elsewhere (another tab, another staff member) is then there to choose.
    staleTime: 0,
  });
}

/** Picks a master app by id (as a string, the way URLs and forms hold it). */
export function MasterAppSelect(
  props: Omit<SelectProps, 'data' | 'value' | 'onChange'> & {
    value: string;
    onChange: (value: string) => void;
  },
) {
  const { value, onChange, ...rest } = props;
  const query = useMasterAppOptions();
  return (
    <Select
      label="Master app"
      placeholder="All apps"
      searchable
      clearable
      nothingFoundMessage="No such app"
      {...rest}
      data={(query.data?.result ?? []).map((a) => ({ value: String(a.id), label: a.name }))}
      value={value || null}
      onChange={(v) => onChange(v ?? '')}
      disabled={query.isPending || rest.disabled}
    />
  );
}
