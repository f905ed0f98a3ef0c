import { Badge, Menu, UnstyledButton } from '@mantine/core';
import { IconCheck, IconChevronDown } from '@tabler/icons-react';
import { STATUSES, type Status } from '@master-admin/contract';

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
  if (!props.onChange) return <StatusBadge status={props.status} />;
  const onChange = props.onChange;
  return (
    <Menu position="bottom-start" withinPortal shadow="md" returnFocus>
      <Menu.Target>
        <UnstyledButton
          aria-label={`Status of ${props.subject}: ${STATUS_LABELS[props.status]}. Change`}
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
      </Menu.Target>
      <Menu.Dropdown>
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
      </Menu.Dropdown>
    </Menu>
  );
}
