import { useRef, type ReactNode } from 'react';
import { Badge, Menu, Stack, UnstyledButton } from '@mantine/core';
import { IconCheck, IconChevronDown } from '@tabler/icons-react';
import { STATUSES, type Status } from '@master-admin/contract';
import type { Column } from './DataTable';
import { LazyMenu } from './LazyMenu';

/** What a person reads for each status; the codes stay on the wire. */
export const STATUS_LABELS: Record<Status, string> = {
  ACTIVE: 'Active',
  DEACTIVE: 'Deactivated',
  DELETED: 'Deleted',
  SUSPENDED: 'Suspended',
  PENDING: 'Pending',
};

/** The statuses as choices for a select: the code as value, the label as text. */
export const STATUS_OPTIONS = STATUSES.map((value) => ({ value, label: STATUS_LABELS[value] }));

const COLORS: Record<Status, string> = {
  ACTIVE: 'teal',
  DEACTIVE: 'gray',
  DELETED: 'red',
  SUSPENDED: 'orange',
  PENDING: 'yellow',
};

// The "dot" variant: the colour is a dot, the text the page's own, so every status reads at
// WCAG AA contrast in both colour schemes (the "light" variant's yellow and orange did not).
export function StatusBadge(props: { status: Status }) {
  return (
    <Badge color={COLORS[props.status]} variant="dot" tt="none">
      {STATUS_LABELS[props.status]}
    </Badge>
  );
}

/**
 * A row's status that changes in two clicks: the badge opens the statuses, a choice applies it.
 * Without `onChange` (no right to change it), just the badge.
 */
export function StatusMenu(props: {
  status: Status;
  /** What the status belongs to, for the button's name. */
  subject: string;
  onChange?: ((status: Status) => void) | undefined;
}) {
  const button = useRef<HTMLButtonElement>(null);
  if (!props.onChange) return <StatusBadge status={props.status} />;
  const onChange = props.onChange;
  return (
    <LazyMenu
      position="bottom-start"
      buttonRef={button}
      target={(lazy) => (
        <UnstyledButton
          ref={button}
          aria-label={`Status of ${props.subject}: ${STATUS_LABELS[props.status]}. Change`}
          {...lazy}
        >
          <Badge
            color={COLORS[props.status]}
            variant="dot"
            tt="none"
            rightSection={<IconChevronDown size={12} />}
            style={{ cursor: 'pointer' }}
          >
            {STATUS_LABELS[props.status]}
          </Badge>
        </UnstyledButton>
      )}
    >
      <Menu.Label>Set status</Menu.Label>
      {STATUSES.map((s) => (
        <Menu.Item
          key={s}
          onClick={() => s !== props.status && onChange(s)}
          rightSection={s === props.status ? <IconCheck size={14} /> : undefined}
          aria-current={s === props.status ? 'true' : undefined}
        >
          {STATUS_LABELS[s]}
        </Menu.Item>
      ))}
    </LazyMenu>
  );
}

/**
 * A list's status column: the row's status as a menu that changes it in two clicks, or a plain
 * badge when `onChange` is left out (the account may not update). Wide enough for the longest
 * label with its dot and chevron.
 */
export function statusColumn<Row extends { id: number; status: Status }>(options: {
  /** What a row is called in the menu button's name ("Status of Diwali: Active. Change"). */
  subject: (row: Row) => string;
  onChange?: ((row: Row, status: Status) => void) | undefined;
  /** Whether the server sorts this list by status (the area's `*_SORTS` has it). */
  sortable: boolean;
  /** What shows under the status, if anything (a scheduled row's place in its window). */
  below?: (row: Row) => ReactNode;
}): Column<Row> {
  const { onChange } = options;
  return {
    key: 'status',
    header: 'Status',
    // The longest badge, "Suspended" with its menu's chevron, and the cell's padding.
    width: 124,
    sort: options.sortable ? 'status' : undefined,
    render: (row) => {
      const menu = (
        <StatusMenu
          status={row.status}
          subject={options.subject(row)}
          onChange={onChange ? (status) => onChange(row, status) : undefined}
        />
      );
      const below = options.below?.(row);
      return below ? (
        <Stack gap={4} align="flex-start">
          {menu}
          {below}
        </Stack>
      ) : (
        menu
      );
    },
  };
}
