import { Button, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { errorText } from './api';

export type ToastType = 'success' | 'error' | 'warning' | 'info';

export const DEFAULT_TOAST_MS = 2000;

const COLORS: Record<ToastType, string> = {
  success: 'teal',
  error: 'red',
  warning: 'yellow',
  info: 'blue',
};

/** The error toasts still shown (they stay until closed): a success takes them away. */
const shownErrors = new Set<string>();

/**
 * A toast: coloured by type, titled with the type capitalised, closable. It goes after 2 s,
 * except an error, which stays until closed: it is read, often copied, before it is acted on. A
 * success takes the errors still shown away: what failed before has been done since, or is stale
 * (issue #35: "This code is not valid" stayed beside the next "Success").
 */
export function toast(
  type: ToastType,
  message: string,
  duration = DEFAULT_TOAST_MS,
  action?: ToastAction,
) {
  if (type === 'success') {
    for (const id of shownErrors) notifications.hide(id);
    shownErrors.clear();
  }
  const id = notifications.show({
    title: type.charAt(0).toUpperCase() + type.slice(1),
    message: action ? withAction(message, action, () => notifications.hide(id)) : message,
    color: COLORS[type],
    autoClose: type === 'error' ? false : duration,
    withCloseButton: true,
    closeButtonProps: { 'aria-label': 'Close notification' },
    onClose: () => void shownErrors.delete(id),
  });
  if (type === 'error') shownErrors.add(id);
}

/** A button in a toast (Undo): pressing it closes the toast, then runs `onClick`. */
export type ToastAction = { label: string; onClick: () => unknown };

function withAction(message: string, action: ToastAction, close: () => void) {
  return (
    <Group justify="space-between" wrap="nowrap" gap="sm">
      <Text size="sm">{message}</Text>
      <Button
        size="compact-sm"
        variant="light"
        onClick={() => {
          close();
          action.onClick();
        }}
      >
        {action.label}
      </Button>
    </Group>
  );
}

const toasted = new WeakSet<object>();

/**
 * The toast of a failure, once per failure. `labels` (field name to the label a form shows)
 * turn a server message naming a field into one naming it as the form does.
 */
export function toastError(err: unknown, labels?: ReadonlyMap<string, string>, text?: string) {
  if (!markShown(err)) return;
  toast('error', text ?? errorText(err, labels));
}

/**
 * Notes that a failure was shown to the person (a toast, or a form's conflict view): no toast
 * shows it again. False when it had been shown already.
 */
export function markShown(err: unknown): boolean {
  if (typeof err === 'object' && err !== null) {
    if (toasted.has(err)) return false;
    toasted.add(err);
  }
  return true;
}

/**
 * The toast of a failure, shown after the current task: a form that sent the request hears of
 * the failure first and shows it with its field labels (toastError) or its conflict view; this one
 * then stays silent. `text` replaces the failure's own text.
 */
export function toastErrorSoon(err: unknown, text?: string) {
  setTimeout(() => toastError(err, undefined, text), 0);
}
