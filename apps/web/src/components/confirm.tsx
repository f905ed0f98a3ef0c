import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';

/** Asks before a destructive action; `onConfirm` runs only on "Delete". */
export function confirmDelete(options: {
  title: string;
  message: string;
  onConfirm: () => unknown;
}) {
  modals.openConfirmModal({
    title: options.title,
    centered: true,
    children: <Text size="sm">{options.message}</Text>,
    labels: { confirm: 'Delete', cancel: 'Cancel' },
    confirmProps: { color: 'red' },
    onConfirm: options.onConfirm,
  });
}
