import type { ReactNode } from 'react';
import { Group } from '@mantine/core';
import type { ListParams } from '../lib/list';
import { SearchInput } from './SearchInput';

/**
 * The bar above a list: its search box, bound to the list's keyword in the URL, then the list's
 * filters (children), wrapping onto more lines on a narrow screen. Every list screen uses it.
 */
export function ListToolbar(props: {
  search?: {
    label: string;
    placeholder: string;
    params: Pick<ListParams, 'keyword' | 'setKeyword'>;
  };
  children?: ReactNode;
}) {
  const { search } = props;
  return (
    <Group mb="md" align="flex-end" wrap="wrap">
      {search && (
        <SearchInput
          label={search.label}
          placeholder={search.placeholder}
          value={search.params.keyword}
          onChange={search.params.setKeyword}
        />
      )}
      {props.children}
    </Group>
  );
}
