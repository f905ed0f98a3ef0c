/**
 * A dashboard card holding a chart, with the same numbers as a table: shown on demand ("Table"),
 * and always present, visually hidden, for screen readers (the chart itself is hidden from them).
 */
import { useState, type ReactNode } from 'react';
import { Anchor, Box, Button, Group, Paper, Table, Text, VisuallyHidden } from '@mantine/core';
import { Link } from 'react-router';

export type TableView = {
  caption: string;
  columns: string[];
  rows: Array<Array<ReactNode>>;
};

export function DataTableView(props: TableView & { visible?: boolean }) {
  const table = (
    <Table striped withTableBorder={props.visible} fz="sm">
      <caption style={props.visible ? { captionSide: 'top', textAlign: 'left' } : undefined}>
        {props.caption}
      </caption>
      <Table.Thead>
        <Table.Tr>
          {props.columns.map((c) => (
            <Table.Th key={c} scope="col">
              {c}
            </Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {props.rows.map((row, i) => (
          <Table.Tr key={i}>
            {row.map((cell, j) =>
              j === 0 ? (
                <Table.Th key={j} scope="row" fw={400}>
                  {cell}
                </Table.Th>
              ) : (
                <Table.Td key={j}>{cell}</Table.Td>
              ),
            )}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
  // A long table scrolls in its own region, reachable by keyboard.
  return props.visible ? (
    <Box
      mah={320}
      style={{ overflow: 'auto' }}
      tabIndex={0}
      role="region"
      aria-label={props.caption}
    >
      {table}
    </Box>
  ) : (
    <VisuallyHidden>{table}</VisuallyHidden>
  );
}

export function ChartCard(props: {
  title: string;
  /** Where the rows behind the numbers are listed; none when the account may not open it. */
  link?: { to: string; label: string };
  table: TableView;
  /** What the card shows while its data loads, or when it failed. */
  status?: ReactNode;
  children: ReactNode;
  /** Under the chart or table (more links). */
  footer?: ReactNode;
  testId?: string;
}) {
  const [asTable, setAsTable] = useState(false);
  return (
    <Paper withBorder p="md" radius="md" data-testid={props.testId}>
      <Group justify="space-between" mb="sm" gap="xs">
        <Text fw={600}>{props.title}</Text>
        <Group gap="xs">
          {!props.status && (
            <Button
              size="compact-xs"
              variant={asTable ? 'filled' : 'default'}
              aria-pressed={asTable}
              aria-label={`Show ${props.title.toLowerCase()} as a table`}
              onClick={() => setAsTable((v) => !v)}
            >
              Table
            </Button>
          )}
          {props.link && (
            <Anchor component={Link} to={props.link.to} size="sm">
              {props.link.label}
            </Anchor>
          )}
        </Group>
      </Group>
      {props.status ??
        (asTable ? (
          <DataTableView {...props.table} visible />
        ) : (
          <>
            <div aria-hidden="true">{props.children}</div>
            <DataTableView {...props.table} />
          </>
        ))}
      {props.footer}
    </Paper>
  );
}
