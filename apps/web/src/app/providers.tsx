import type { ReactNode } from 'react';
import { MantineProvider, createTheme, type CSSVariablesResolver } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'indigo',
  // Shade 7 (light) / 8 (dark) keeps white text on filled buttons above 4.5:1 (WCAG AA).
  primaryShade: { light: 7, dark: 8 },
  defaultRadius: 'md',
  // Someone whose system asks for reduced motion gets dialogs, menus and toasts without transitions.
  respectReducedMotion: true,
  fontFamily:
    'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  // Plain objects rather than Modal.extend(), so the sign-in entry does not carry their code.
  components: {
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Close dialog' } } },
    Drawer: { defaultProps: { closeButtonProps: { 'aria-label': 'Close panel' } } },
    // A select's list is rendered when it opens, not kept hidden in the page: a hidden one is
    // positioned on mount, a forced style and layout pass on every screen with a select.
    Combobox: { defaultProps: { keepMounted: false } },
    // A badge (a status, a schedule) is read whole: a squeezed table column gives way elsewhere
    // rather than cutting it to "Act…".
    Badge: { styles: { root: { minWidth: 'max-content' } } },
  },
});

/**
 * "Dimmed" text (hints, helper lines) is gray 6 by default: 3.3:1 on white, under WCAG AA's
 * 4.5:1. One shade darker in light mode, one lighter in dark mode. Placeholders (gray 5, 2.1:1)
 * become greys of about 4.7:1 on the inputs' background in either scheme: still lighter than a
 * value, but readable.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-placeholder': '#6c757d',
  },
  dark: {
    '--mantine-color-dimmed': 'var(--mantine-color-dark-1)',
    '--mantine-color-placeholder': '#9a9a9a',
  },
});

/**
 * The theme: all the first screens (sign-in, not found, errors) need. The signed-in layout adds
 * the rest (app-providers.tsx), so the sign-in screen does not load them.
 */
export function ThemeProvider(props: {
  children: ReactNode;
  /** 'test' turns off transitions and portals, so tests see dropdowns at once. */
  env?: 'default' | 'test';
}) {
  return (
    <MantineProvider
      theme={theme}
      env={props.env}
      defaultColorScheme="auto"
      cssVariablesResolver={cssVariablesResolver}
    >
      {props.children}
    </MantineProvider>
  );
}
