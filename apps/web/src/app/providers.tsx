import type { ReactNode } from 'react';
import { MantineProvider, createTheme } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ApiError } from '../lib/api';

export const theme = createTheme({
  primaryColor: 'indigo',
  defaultRadius: 'md',
  fontFamily:
    'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
});

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

export function Providers(props: {
  children: ReactNode;
  queryClient: QueryClient;
  /** 'test' turns off transitions and portals, so tests see dropdowns at once. */
  env?: 'default' | 'test';
}) {
  return (
    <MantineProvider theme={theme} env={props.env}>
      <QueryClientProvider client={props.queryClient}>
        <ModalsProvider>
          <Notifications position="top-right" limit={5} />
          {props.children}
        </ModalsProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
