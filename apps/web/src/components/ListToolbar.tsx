import { Children, isValidElement, useState, type ReactNode } from 'react';
import { Button, Group, Stack } from '@mantine/core';
import { IconFilter } from '@tabler/icons-react';
import type { ListParams } from '../lib/list';
import { usePhone } from '../lib/phone';
import { SearchInput } from './SearchInput';

/**
 * How many of a toolbar's filters hold a value: each filter is a controlled field whose `value`
 * is the URL's (empty: not filtering).
 */
function activeFilters(children: ReactNode): number {
  return Children.toArray(children).filter((child) => {
    if (!isValidElement<{ value?: unknown }>(child)) return false;
    const { value } = child.props;
    return value !== undefined && value !== null && value !== '';
  }).length;
}

/**
 * The bar above a list: its search box, bound to the list's keyword in the URL, then the list's
 * filters (children), wrapping onto more lines on a narrow screen. Every list screen uses it. On a
 * phone the filters wait behind "Filters (n)" (n: those set), so the rows start on the first
 * screen: four stacked filters pushed the posters below it (issue #35).
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
  const phone = usePhone();
  const [open, setOpen] = useState(false);
  const searchBox = search && (
    <SearchInput
      label={search.label}
      placeholder={search.placeholder}
      value={search.params.keyword}
      onChange={search.params.setKeyword}
    />
  );
  const filters = Children.toArray(props.children).filter(Boolean);
  if (!phone || filters.length === 0) {
    return (
      <Group mb="md" align="flex-end" wrap="wrap">
        {searchBox}
        {props.children}
      </Group>
    );
  }
  const active = activeFilters(props.children);
  return (
    <Stack mb="md" gap="xs">
      <Group align="flex-end" wrap="nowrap" gap="xs">
        {searchBox && <div style={{ flex: 1, minWidth: 0 }}>{searchBox}</div>}
        <Button
          variant={active > 0 ? 'light' : 'default'}
          leftSection={<IconFilter size={16} />}
          aria-expanded={open}
          onClick={() => setOpen((v) => !v)}
        >
          Filters ({active})
        </Button>
      </Group>
      {/* Only while open: a closed filter's lookups (categories, apps) are not made. */}
      {open && <Stack gap="xs">{props.children}</Stack>}
    </Stack>
  );
}
