import { useState } from 'react';
import { Select, type SelectProps } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { errorText } from '../lib/api';
import { SEARCH_DEBOUNCE_MS } from './SearchInput';

export type SelectOption = { value: string; label: string };

/** One page of options; `more` when the list had rows beyond it. */
export type OptionPage = { options: SelectOption[]; more: boolean };

export type SearchSelectProps = Omit<
  SelectProps,
  'data' | 'value' | 'onChange' | 'searchable' | 'searchValue' | 'onSearchChange'
> & {
  /** The chosen id as a string (the way URLs and forms hold it); '' for none. */
  value: string;
  onChange: (value: string) => void;
};

/**
 * A searchable select over a server list that may be longer than one page: the first page of
 * choices at once, filtered as one types; when the list has more, what is typed is also asked of
 * the server (its `keyword`) and the matches join the choices. `known` names a chosen value that
 * arrived from elsewhere (a URL) and may not be among the first page.
 */
export function SearchSelect(
  props: SearchSelectProps & {
    queryKey: readonly unknown[];
    load: (keyword: string) => Promise<OptionPage>;
    known?: SelectOption | undefined;
  },
) {
  const { value, onChange, queryKey, load, known, ...rest } = props;
  const [search, setSearch] = useState('');
  const [typed] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const first = useQuery({
    queryKey: [...queryKey, ''],
    queryFn: () => load(''),
    // Asked again whenever a picker appears, so a row made elsewhere is there to choose.
    staleTime: 0,
  });
  const firstOptions = first.data?.options ?? [];
  const chosen = firstOptions.find((o) => o.value === value) ?? known;
  // The search box shows the chosen label while closed: that is no search.
  const keyword = first.data?.more && typed !== '' && typed !== chosen?.label ? typed : '';
  const matches = useQuery({
    queryKey: [...queryKey, keyword],
    queryFn: () => load(keyword),
    enabled: keyword !== '',
    staleTime: 30_000,
  });

  const data = new Map<string, SelectOption>();
  for (const o of [...firstOptions, ...(matches.data?.options ?? []), ...(known ? [known] : [])]) {
    if (!data.has(o.value)) data.set(o.value, o);
  }

  return (
    <Select
      searchable
      clearable
      {...rest}
      nothingFoundMessage={
        first.isError
          ? `Could not load the choices: ${errorText(first.error)}`
          : (rest.nothingFoundMessage ?? 'No match')
      }
      data={[...data.values()]}
      value={value || null}
      onChange={(v) => onChange(v ?? '')}
      onSearchChange={setSearch}
      disabled={first.isPending || rest.disabled}
    />
  );
}
