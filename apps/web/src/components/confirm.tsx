import type { ReactNode } from 'react';
import { Text, getDefaultZIndex } from '@mantine/core';
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
  /** Runs when the question closes, whatever the answer. */
  onClose?: () => void;
  /**
   * Asked over an open dialog: shown above it. That dialog must stop trapping focus and Esc until
   * `onClose` (both listen on the document, and would take Tab and Esc from the question).
   */
  overDialog?: boolean;
}) {
  modals.openConfirmModal({
    title: options.title,
    centered: true,
    children: <Text size="sm">{options.message}</Text>,
    labels: { confirm: options.confirmLabel, cancel: 'Cancel' },
    confirmProps: options.danger ? { color: 'red' } : {},
    onConfirm: options.onConfirm,
    ...(options.onClose ? { onClose: options.onClose } : {}),
    ...(options.overDialog ? { zIndex: getDefaultZIndex('modal') + 10 } : {}),
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
