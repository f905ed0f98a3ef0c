import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { STORAGE_KEYS } from '@master-admin/contract';
import { ThemeProvider } from '../src/app/providers';
import { createQueryClient, useQueryClientForTests } from '../src/app/app-providers';
import { routes, sendToSignInOnUnauthorized } from '../src/app/router';

/** Renders the whole app at `path`, as a browser would show it. */
export function renderApp(path: string, options: { signedInAs?: string } = {}) {
  if (options.signedInAs) {
    localStorage.setItem(STORAGE_KEYS.token, 'test-token');
    localStorage.setItem(STORAGE_KEYS.loginId, options.signedInAs);
  }
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  sendToSignInOnUnauthorized(router);
  const client = createQueryClient();
  client.setDefaultOptions({ queries: { retry: false, staleTime: 0 } });
  useQueryClientForTests(client);
  const view = render(
    <ThemeProvider env="test">
      <RouterProvider router={router} />
    </ThemeProvider>,
  );
  return { ...view, router };
}
