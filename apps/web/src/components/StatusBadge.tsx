import { Badge } from '@mantine/core';
import type { Status } from '@master-admin/contract';

const COLORS: Record<Status, string> = {
  ACTIVE: 'teal',
  DEACTIVE: 'gray',
  DELETED: 'red',
  SUSPENDED: 'orange',
  PENDING: 'yellow',
};

export function StatusBadge(props: { status: Status }) {
  return (
    <Badge color={COLORS[props.status]} variant="light">
      {props.status}
    </Badge>
  );
}
