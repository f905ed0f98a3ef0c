import { useDeferredValue, useEffect, useState, type ReactNode } from 'react';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  EmptyState,
  Group,
  LoadingOverlay,
  Pagination,
  Paper,
  Select,
  Table,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import { useLocalStorage } from '@mantine/hooks';
import { IconAlertTriangle, IconInbox, IconPlus } from '@tabler/icons-react';
import { errorText, type Values } from '../lib/api';
import { MATCHING_MAX, type ListSource, type Selection } from '../lib/bulk';
import { formatNumber } from '../lib/format';
import { PAGE_SIZES, type ListParams } from '../lib/list';
import type { LiveRows } from '../lib/live-list';
import { usePhone } from '../lib/phone';
import {
  ACTIONS_SKELETON,
  CHECKBOX_SKELETON,
  DataTableCards,
  LINE_SKELETON,
} from './DataTableCards';
import { DensityControl, PhoneSort, SortableHeader } from './DataTableControls';
import { ExportButton } from './ExportButton';
import { NewRowsBar, RowLiveBadges, rowLive } from './LiveRows';

export type Column<Row> = {
  key: string;
  /** The column's heading; on a phone, the label beside the value. */
  header: string;
  render: (row: Row) => ReactNode;
  width?: number | string;
  align?: 'left' | 'right' | 'center';
  /** The field the server sorts this column by (one of the area's `*_SORTS`). */
  sort?: string;
  /** On a phone: 'title' heads the row's card, 'hidden' leaves the column out. */
  card?: 'title' | 'hidden';
  /**
   * What the cell shows while the rows load, when its content is taller than a line of text (a
   * thumbnail): the loading rows are as tall as the rows that replace them, so nothing jumps.
   */
  skeleton?: ReactNode;
};

type QueryState = {
  isPending: boolean;
  isFetching: boolean;
  isError: boolean;
  error: unknown;
  refetch: () => unknown;
};

/** Loading cards on a phone, in place of a page of them. */
export const PHONE_LOADING_CARDS = 3;

export type Density = 'comfortable' | 'compact';
export const DENSITY_KEY = 'master-admin:table-density';

export type Params = Pick<
  ListParams,
  | 'page'
  | 'limit'
  | 'setPage'
  | 'setLimit'
  | 'keyword'
  | 'filters'
  | 'clear'
  | 'sort'
  | 'sorts'
  | 'setSort'
> & {
  /** The list's CSV export (useList gives it): every row of the current filters, keyword, sort. */
  download?: { path: string; query: Values } | undefined;
  /** The list call with its current query (useList gives it): offers "Select all N matching". */
  matching?: ListSource | undefined;
  /** What others do in the list's area (useList gives it for a list with an `area`). */
  live?: LiveRows | undefined;
  /** The server estimated the total (a keyword matching more than 10,000 rows). */
  totalEstimated?: boolean | undefined;
};

/** `1–20 of 1,234`: the rows shown and how many match (`of about 99,000` when estimated). */
export function rangeText(page: number, limit: number, total: number, estimated = false): string {
  if (total === 0) return '0 of 0';
  const first = (page - 1) * limit + 1;
  const last = estimated ? page * limit : Math.min(total, page * limit);
  return `${formatNumber(first)}–${formatNumber(last)} of ${estimated ? 'about ' : ''}${formatNumber(total)}`;
}

/**
 * The one table every list uses: rows (cards on a phone), sorting by the columns the area allows,
 * row selection with the screen's bulk actions, a loader while fetching, empty and error states,
 * the range shown, the page size and pagination.
 */
export function DataTable<Row>(props: {
  label: string;
  columns: Column<Row>[];
  rows: Row[];
  total: number;
  rowKey: (row: Row) => string | number;
  params: Params;
  query: QueryState;
  /**
   * What an empty area is for, and the button that makes the first row (leave it out when the
   * account may not create).
   */
  empty: {
    title: string;
    description: string;
    action?: { label: string; onClick: () => void } | undefined;
  };
  /** The row's own actions (a RowActions menu), last in the row or atop its card. */
  actions?: (row: Row) => ReactNode;
  /** What a row is called, for its checkbox ("Select Banner #7"); `#id` when not given. */
  rowName?: (row: Row) => string;
  /**
   * Rows can be selected; the bar above the table offers these actions for the selection: rows
   * picked on screen, or every row the search and filters match (lib/bulk.ts).
   */
  bulkActions?: (selection: Selection<Row>, clear: () => void) => ReactNode;
  /**
   * The narrowest the table gets before it scrolls sideways (560 px when not given): a list with
   * many columns sets more, so its columns are not squeezed until badges and names are cut.
   */
  minWidth?: number;
}) {
  const { params, query, columns } = props;
  // New rows are drawn in the background, in slices between which the page stays responsive
  // (drawn at once, a page of rows blocked a phone's main thread for a good part of a second);
  // until then the rows shown stay as they were.
  const rows = useDeferredValue(props.rows);
  const total = useDeferredValue(props.total);
  const catchingUp = rows !== props.rows || total !== props.total;
  const pages = Math.max(1, Math.ceil(total / params.limit));
  const filtered = params.keyword !== '' || Object.values(params.filters).some((v) => v !== '');
  const phone = usePhone();
  const [density, setDensity] = useLocalStorage<Density>({
    key: DENSITY_KEY,
    defaultValue: 'comfortable',
  });
  // Another search or filter is another set of rows: the selection, kept with the search and
  // filters it was made under, does not carry over.
  const filterKey = JSON.stringify([params.keyword, params.filters]);
  const [selection, setSelection] = useState<{
    filterKey: string;
    rows: ReadonlyMap<string | number, Row>;
    /** Every row matching the search and filters, `total` of them when chosen. */
    matching?: number;
  }>({ filterKey, rows: new Map() });
  const current = selection.filterKey === filterKey ? selection : undefined;
  const selected = current?.rows ?? new Map<string | number, Row>();
  // "All matching" holds while the total it was chosen for does; a change of the rows ends it.
  const matching = current?.matching === total ? total : undefined;
  /** Picks rows on screen (ending "all matching": the rows now picked are the selection). */
  const setSelected = (
    change: (prev: ReadonlyMap<string | number, Row>) => ReadonlyMap<string | number, Row>,
  ) => setSelection({ filterKey, rows: change(selected) });
  const clearSelection = () => setSelection({ filterKey, rows: new Map() });
  const selectMatching = () => setSelection({ filterKey, rows: selected, matching: total });

  // A page past the end (rows deleted, a shared link) moves to the last page.
  useEffect(() => {
    if (
      !query.isFetching &&
      !query.isError &&
      !catchingUp &&
      rows.length === 0 &&
      total > 0 &&
      params.page > pages
    ) {
      params.setPage(pages);
    }
  }, [query.isFetching, query.isError, catchingUp, rows.length, total, params, pages]);

  const selectable = props.bulkActions !== undefined;
  const keys = rows.map(props.rowKey);
  const shown = new Map(rows.map((row, i) => [keys[i], row] as const));
  const onPage = matching ? rows.length : keys.filter((k) => selected.has(k)).length;
  const isSelected = (key: string | number) => matching !== undefined || selected.has(key);
  const bulkSelection: Selection<Row> | undefined =
    matching !== undefined && params.matching
      ? { kind: 'matching', source: params.matching, count: matching }
      : selected.size > 0
        ? {
            kind: 'rows',
            // A picked row as the page now shows it (read again since: its version moved).
            rows: [...selected].map(([key, row]) => shown.get(key) ?? row),
            count: selected.size,
          }
        : undefined;
  // The whole page is picked and more rows match: offer them all.
  const offerMatching =
    matching === undefined &&
    params.matching !== undefined &&
    rows.length > 0 &&
    onPage === rows.length &&
    total > selected.size;
  const toggle = (row: Row) =>
    setSelected((prev) => {
      // Leaving "all matching" by unticking a row keeps the rest of this page.
      const next = new Map(matching ? rows.map((r) => [props.rowKey(r), r] as const) : prev);
      const key = props.rowKey(row);
      if (next.has(key)) next.delete(key);
      else next.set(key, row);
      return next;
    });
  const togglePage = () =>
    setSelected((prev) => {
      const next = new Map(matching ? [] : prev);
      if (onPage === rows.length) for (const k of keys) next.delete(k);
      else for (const row of rows) next.set(props.rowKey(row), row);
      return next;
    });

  const rowLabel = (row: Row) => props.rowName?.(row) ?? `#${props.rowKey(row)}`;
  const live = params.live;
  // A deleted row keeps its place, marked, until the next fetch; it offers no actions.
  const actions = props.actions;
  const rowActions = actions
    ? (row: Row) =>
        rowLive(live, props.rowKey(row))?.deletedBy === undefined ? actions(row) : null
    : undefined;
  // Until the first rows come, a page of loading rows holds their place (and the footer's):
  // the table keeps its frame from the first paint.
  const loading = rows.length === 0 && (query.isPending || catchingUp);
  // A phone shows a card or two of a list below its filters: three loading cards fill the screen
  // (a page of them cost the first render a third of its time), and what comes below them is
  // out of view, so nothing in view moves when the rows come.
  const slots = phone ? Math.min(params.limit, PHONE_LOADING_CARDS) : params.limit;
  const loadingSlots = loading ? Array.from({ length: slots }, (_, i) => i) : [];

  const body =
    phone && (rows.length > 0 || loading) ? (
      <DataTableCards
        label={props.label}
        columns={columns}
        rows={rows}
        rowKey={props.rowKey}
        loading={loadingSlots.length}
        actions={rowActions}
        live={(row) => rowLive(live, props.rowKey(row))}
        selection={
          selectable
            ? (row) => ({
                checked: isSelected(props.rowKey(row)),
                toggle: () => toggle(row),
                label: `Select ${rowLabel(row)}`,
              })
            : undefined
        }
      />
    ) : (
      <Table.ScrollContainer minWidth={phone ? 0 : (props.minWidth ?? 560)}>
        <Table
          striped
          highlightOnHover
          verticalSpacing={density === 'compact' ? 4 : 'xs'}
          aria-label={props.label}
          aria-rowcount={total + 1}
        >
          <Table.Thead>
            <Table.Tr>
              {selectable && (
                <Table.Th w={40}>
                  <Checkbox
                    aria-label="Select every row on this page"
                    checked={rows.length > 0 && onPage === rows.length}
                    indeterminate={onPage > 0 && onPage < rows.length}
                    disabled={rows.length === 0}
                    onChange={togglePage}
                  />
                </Table.Th>
              )}
              {columns.map((c) => (
                <SortableHeader key={c.key} column={c} params={params} />
              ))}
              {props.actions && (
                <Table.Th w={60}>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              )}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => {
              const key = props.rowKey(row);
              const state = rowLive(live, key);
              const deleted = state?.deletedBy !== undefined;
              return (
                <Table.Tr
                  key={key}
                  bg={isSelected(key) ? 'var(--mantine-primary-color-light)' : undefined}
                  data-deleted={deleted || undefined}
                  // Nothing in it acts any more (its row is gone): struck through, dimmed, inert
                  // to the pointer.
                  style={
                    deleted
                      ? { opacity: 0.6, textDecoration: 'line-through', pointerEvents: 'none' }
                      : undefined
                  }
                >
                  {selectable && (
                    <Table.Td>
                      <Checkbox
                        aria-label={`Select ${rowLabel(row)}`}
                        checked={isSelected(key)}
                        onChange={() => toggle(row)}
                      />
                    </Table.Td>
                  )}
                  {columns.map((c, i) => (
                    <Table.Td key={c.key} ta={c.align}>
                      {c.render(row)}
                      {i === 0 && <RowLiveBadges state={state} />}
                    </Table.Td>
                  ))}
                  {rowActions && <Table.Td ta="right">{rowActions(row)}</Table.Td>}
                </Table.Tr>
              );
            })}
            {loadingSlots.map((slot) => (
              <Table.Tr key={slot} aria-hidden data-testid="loading-row">
                {selectable && <Table.Td>{CHECKBOX_SKELETON}</Table.Td>}
                {columns.map((c) => (
                  <Table.Td key={c.key} ta={c.align}>
                    {c.skeleton ?? LINE_SKELETON}
                  </Table.Td>
                ))}
                {props.actions && <Table.Td>{ACTIONS_SKELETON}</Table.Td>}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    );

  return (
    <Paper withBorder radius="md">
      {selectable && bulkSelection && (
        <Group
          justify="space-between"
          px="sm"
          py={8}
          gap="xs"
          wrap="wrap"
          bg="var(--mantine-primary-color-light)"
          role="region"
          aria-label="Selected rows"
          style={{ borderTopLeftRadius: 'inherit', borderTopRightRadius: 'inherit' }}
        >
          <Group gap="xs">
            <Text size="sm" fw={600} aria-live="polite">
              {matching !== undefined
                ? `All ${formatNumber(matching)} matching selected`
                : `${formatNumber(selected.size)} selected`}
            </Text>
            {offerMatching &&
              (total <= MATCHING_MAX ? (
                <Button size="compact-sm" variant="subtle" onClick={selectMatching}>
                  Select all {formatNumber(total)} matching
                </Button>
              ) : (
                <Text size="sm" c="dimmed">
                  {params.totalEstimated ? 'About ' : ''}
                  {formatNumber(total)} match: narrow the search to act on them all (at most{' '}
                  {formatNumber(MATCHING_MAX)})
                </Text>
              ))}
            <Button size="compact-sm" variant="subtle" onClick={clearSelection}>
              Clear selection
            </Button>
          </Group>
          <Group gap="xs">{props.bulkActions?.(bulkSelection, clearSelection)}</Group>
        </Group>
      )}
      {phone && (rows.length > 0 || loading) && (selectable || params.sorts.length > 0) && (
        <Group px="xs" pt="xs" gap="xs" justify="space-between">
          {selectable && (
            <Checkbox
              label="Select all on this page"
              checked={rows.length > 0 && onPage === rows.length}
              indeterminate={onPage > 0 && onPage < rows.length}
              disabled={rows.length === 0}
              onChange={togglePage}
            />
          )}
          {params.sorts.length > 0 && <PhoneSort columns={columns} params={params} />}
        </Group>
      )}
      <NewRowsBar live={live} />
      <Box pos="relative">
        {/* A quiet fetch (a change made elsewhere) updates the rows in place, with no overlay. */}
        <LoadingOverlay
          visible={(query.isFetching || catchingUp) && !live?.quiet}
          zIndex={2}
          overlayProps={{ blur: 1 }}
        />
        {body}
        {/* Outside the scrolling table, so it stays in view on a narrow screen. */}
        {rows.length === 0 && !loading && (
          <Box px="md">
            {query.isError ? (
              <Alert
                color="red"
                icon={<IconAlertTriangle size={18} />}
                title="Could not load the list"
                my="md"
              >
                <Group justify="space-between">
                  <Text size="sm">{errorText(query.error)}</Text>
                  <Button size="xs" variant="light" color="red" onClick={() => query.refetch()}>
                    Try again
                  </Button>
                </Group>
              </Alert>
            ) : filtered ? (
              <EmptyState
                my="lg"
                icon={<IconInbox size={28} />}
                title="Nothing matches"
                description="Try another search, or clear the search and filters."
              >
                <EmptyState.Actions>
                  <Button variant="default" onClick={params.clear}>
                    Clear search and filters
                  </Button>
                </EmptyState.Actions>
              </EmptyState>
            ) : (
              <EmptyState
                my="lg"
                icon={<IconInbox size={28} />}
                title={props.empty.title}
                description={props.empty.description}
              >
                {props.empty.action && (
                  <EmptyState.Actions>
                    <Button
                      leftSection={<IconPlus size={18} />}
                      onClick={props.empty.action.onClick}
                    >
                      {props.empty.action.label}
                    </Button>
                  </EmptyState.Actions>
                )}
              </EmptyState>
            )}
          </Box>
        )}
      </Box>
      <Group justify="space-between" p="sm" gap="sm" wrap="wrap">
        <Group gap="sm" wrap="wrap">
          <Text size="sm" c="dimmed" aria-live="polite" data-testid="list-range">
            {rangeText(params.page, params.limit, total, params.totalEstimated)}
          </Text>
          {params.download && <ExportButton download={params.download} total={props.total} />}
        </Group>
        <Group gap="sm" wrap="wrap">
          {!phone && <DensityControl value={density} onChange={setDensity} />}
          <Group gap={6}>
            <Text size="sm" c="dimmed" component="label" htmlFor={`${props.label}-page-size`}>
              Rows per page
            </Text>
            <Select
              id={`${props.label}-page-size`}
              w={80}
              size="xs"
              allowDeselect={false}
              data={PAGE_SIZES.map(String)}
              value={String(params.limit)}
              onChange={(v) => v && params.setLimit(Number(v))}
            />
          </Group>
          <Pagination
            size="sm"
            total={pages}
            siblings={phone ? 0 : 1}
            value={Math.min(params.page, pages)}
            onChange={params.setPage}
            getControlProps={(control) => ({
              'aria-label':
                control === 'previous'
                  ? 'Previous page'
                  : control === 'next'
                    ? 'Next page'
                    : control,
            })}
          />
        </Group>
      </Group>
    </Paper>
  );
}
