/**
 * What the signed-in screens need around them: server state (TanStack Query), confirmation
 * modals and toasts. Loaded with the signed-in layout, not with the sign-in screen.
 */
import type { ReactNode } from 'react';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ApiError } from '../lib/api';
import { ThemeProvider } from './providers';

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 10_000,
        // A refusal (4xx) will not change by asking again.
        retry: (count, err) =>
          !(err instanceof ApiError && err.status !== undefined && err.status < 500) && count < 1,
        refetchOnWindowFocus: false,
      },
    },
  });
}

let client: QueryClient | undefined;
/** The one query client of the page (tests give their own with `useQueryClientForTests`). */
export function appQueryClient(): QueryClient {
  return (client ??= createQueryClient());
}
export function useQueryClientForTests(testClient: QueryClient) {
  client = testClient;
}

export function AppProviders(props: { children: ReactNode }) {
  return (
    <QueryClientProvider client={appQueryClient()}>
      <ModalsProvider>
        {/* At the bottom, where they never cover a page's actions (top right). */}
        <Notifications position="bottom-right" limit={5} />
        {props.children}
      </ModalsProvider>
    </QueryClientProvider>
  );
}

/** Everything at once, for tests that render a piece of the app alone. */
export function Providers(props: { children: ReactNode; env?: 'default' | 'test' }) {
  return (
    <ThemeProvider env={props.env}>
      <AppProviders>{props.children}</AppProviders>
    </ThemeProvider>
  );
}
