import { useEffect, type ReactNode } from 'react';
import {
  Alert,
  Box,
  Button,
  EmptyState,
  Group,
  LoadingOverlay,
  Pagination,
  Paper,
  Select,
  Table,
  Text,
} from '@mantine/core';
import { IconAlertTriangle, IconInbox } from '@tabler/icons-react';
import { errorText } from '../lib/api';
import { formatNumber } from '../lib/format';
import { PAGE_SIZES, type ListParams } from '../lib/list';

export type Column<Row> = {
  key: string;
  header: ReactNode;
  render: (row: Row) => ReactNode;
  width?: number | string;
  align?: 'left' | 'right' | 'center';
};

type QueryState = {
  isPending: boolean;
  isFetching: boolean;
  isError: boolean;
  error: unknown;
  refetch: () => unknown;
};

/**
 * The one table every list uses: rows, a loader while fetching, empty and error states, the
 * total, the page size and pagination.
 */
export function DataTable<Row>(props: {
  label: string;
  columns: Column<Row>[];
  rows: Row[];
  total: number;
  rowKey: (row: Row) => string | number;
  params: Pick<ListParams, 'page' | 'limit' | 'setPage' | 'setLimit' | 'keyword' | 'filters'>;
  query: QueryState;
  emptyText?: string;
}) {
  const { params, query, rows, total } = props;
  const pages = Math.max(1, Math.ceil(total / params.limit));
  const filtered = params.keyword !== '' || Object.values(params.filters).some((v) => v !== '');

  // A page past the end (rows deleted, a shared link) moves to the last page.
  useEffect(() => {
    if (
      !query.isFetching &&
      !query.isError &&
      rows.length === 0 &&
      total > 0 &&
      params.page > pages
    ) {
      params.setPage(pages);
    }
  }, [query.isFetching, query.isError, rows.length, total, params, pages]);

  const first = total === 0 ? 0 : (params.page - 1) * params.limit + 1;
  const last = Math.min(total, params.page * params.limit);

  return (
    <Paper withBorder radius="md">
      <Box pos="relative">
        <LoadingOverlay visible={query.isFetching} zIndex={2} overlayProps={{ blur: 1 }} />
        <Table.ScrollContainer minWidth={560}>
          <Table striped highlightOnHover verticalSpacing="sm" aria-label={props.label}>
            <Table.Thead>
              <Table.Tr>
                {props.columns.map((c) => (
                  <Table.Th key={c.key} w={c.width} ta={c.align}>
                    {c.header}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row) => (
                <Table.Tr key={props.rowKey(row)}>
                  {props.columns.map((c) => (
                    <Table.Td key={c.key} ta={c.align}>
                      {c.render(row)}
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
              {rows.length === 0 && query.isPending && (
                <Table.Tr>
                  <Table.Td colSpan={props.columns.length} h={120} />
                </Table.Tr>
              )}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        {/* Outside the scrolling table, so it stays in view on a narrow screen. */}
        {rows.length === 0 && !query.isPending && (
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
            ) : (
              <EmptyState
                my="lg"
                icon={<IconInbox size={28} />}
                title={filtered ? 'Nothing matches' : (props.emptyText ?? 'Nothing here yet')}
                description={filtered ? 'Try another search or clear the filters.' : undefined}
              />
            )}
          </Box>
        )}
      </Box>
      <Group justify="space-between" p="sm" gap="sm" wrap="wrap">
        <Text size="sm" c="dimmed" aria-live="polite">
          {total === 0
            ? 'Total: 0'
            : `Showing ${formatNumber(first)}–${formatNumber(last)} of ${formatNumber(total)}`}
        </Text>
        <Group gap="sm" wrap="wrap">
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
