import { notifications } from '@mantine/notifications';

export type ToastType = 'success' | 'error' | 'warning' | 'info';

export const DEFAULT_TOAST_MS = 2000;

const COLORS: Record<ToastType, string> = {
  success: 'teal',
  error: 'red',
  warning: 'yellow',
  info: 'blue',
};

/** A toast: coloured by type, titled with the type capitalised, closable, gone after 2 s. */
export function toast(type: ToastType, message: string, duration = DEFAULT_TOAST_MS) {
  notifications.show({
    title: type.charAt(0).toUpperCase() + type.slice(1),
    message,
    color: COLORS[type],
    autoClose: duration,
    withCloseButton: true,
    closeButtonProps: { 'aria-label': 'Close notification' },
  });
}
