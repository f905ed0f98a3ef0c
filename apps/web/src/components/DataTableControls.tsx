import { memo } from 'react';
import { NativeSelect, SegmentedControl, Table, UnstyledButton } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconArrowsSort } from '@tabler/icons-react';
import type { Column, Density, Params } from './DataTable';

const DENSITIES = [
  { value: 'comfortable', label: 'Comfortable' },
  { value: 'compact', label: 'Compact' },
];

/**
 * The density switch, drawn again only when the density changes: its sliding indicator measures
 * the page on every render, and the table renders on every step of a load.
 */
export const DensityControl = memo(function DensityControl(props: {
  value: Density;
  onChange: (value: Density) => void;
}) {
  return (
    <SegmentedControl
      size="xs"
      aria-label="Row density"
      value={props.value}
      onChange={(v) => props.onChange(v as Density)}
      data={DENSITIES}
    />
  );
});

/**
 * Headings stay on one line: wrapped, the heading row grew when the rows came and squeezed its
 * columns, and pushed everything below it down.
 */
const HEADING_STYLE = { whiteSpace: 'nowrap' } as const;

/**
 * A column heading; a sortable one is a button cycling ascending, descending and the area's
 * default order, with `aria-sort` telling a screen reader the current one.
 */
export function SortableHeader<Row>(props: { column: Column<Row>; params: Params }) {
  const { column: c, params } = props;
  const field = c.sort && params.sorts.includes(c.sort) ? c.sort : undefined;
  if (!field) {
    return (
      <Table.Th w={c.width} ta={c.align} style={HEADING_STYLE}>
        {c.header}
      </Table.Th>
    );
  }
  const direction =
    params.sort === field ? 'ascending' : params.sort === `-${field}` ? 'descending' : undefined;
  const next = direction === undefined ? field : direction === 'ascending' ? `-${field}` : '';
  const Icon =
    direction === 'ascending'
      ? IconArrowUp
      : direction === 'descending'
        ? IconArrowDown
        : IconArrowsSort;
  return (
    <Table.Th w={c.width} ta={c.align} aria-sort={direction ?? 'none'} style={HEADING_STYLE}>
      <UnstyledButton
        onClick={() => params.setSort(next)}
        fw="inherit"
        fz="inherit"
        style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}
      >
        {c.header}
        <Icon size={14} aria-hidden stroke={direction ? 2.2 : 1.4} />
      </UnstyledButton>
    </Table.Th>
  );
}

/** On a phone there are no headings to press: the sort is a select above the cards. */
export function PhoneSort<Row>(props: { columns: Column<Row>[]; params: Params }) {
  const { params } = props;
  const options = props.columns.flatMap((c) =>
    c.sort && params.sorts.includes(c.sort)
      ? [
          { value: c.sort, label: `${c.header}, ascending` },
          { value: `-${c.sort}`, label: `${c.header}, descending` },
        ]
      : [],
  );
  if (options.length === 0) return null;
  return (
    <NativeSelect
      size="xs"
      aria-label="Sort by"
      value={params.sort}
      onChange={(e) => params.setSort(e.currentTarget.value)}
      data={[{ value: '', label: 'Default order' }, ...options]}
    />
  );
}
