import type { ReactNode } from 'react';
import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';

/**
 * Asks before an action that cannot be taken back or reaches others; `onConfirm` runs only on
 * `confirmLabel`. `danger` colours that button red.
 */
export function confirmAction(options: {
  title: string;
  message: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  onConfirm: () => unknown;
}) {
  modals.openConfirmModal({
    title: options.title,
    centered: true,
    children: <Text size="sm">{options.message}</Text>,
    labels: { confirm: options.confirmLabel, cancel: 'Cancel' },
    confirmProps: options.danger ? { color: 'red' } : {},
    onConfirm: options.onConfirm,
  });
}

/** Asks before a destructive action; `onConfirm` runs only on "Delete". */
export function confirmDelete(options: {
  title: string;
  message: string;
  onConfirm: () => unknown;
}) {
  confirmAction({ ...options, confirmLabel: 'Delete', danger: true });
}
