import type { ComponentType } from 'react';
import { Outlet, createBrowserRouter, type RouteObject } from 'react-router';
import { setUnauthorizedHandler } from '../lib/api';
import { Loading } from '../components/Loading';
import { NotFound } from '../components/NotFound';
import { ErrorScreen } from '../components/ErrorScreen';
import { RequireAuth, type SignInState } from './layout/RequireAuth';
import SignInPage from '../features/auth/SignInPage';

/** A route whose screen is loaded on demand ("Loading..." meanwhile). */
function screen(load: () => Promise<{ default: ComponentType }>): Pick<RouteObject, 'lazy'> {
  return { lazy: async () => ({ Component: (await load()).default }) };
}

/**
 * Every route of the back-office. An area that is not built yet is not listed, so its link shows
 * the not-found screen.
 */
export const routes: RouteObject[] = [
  {
    HydrateFallback: Loading,
    ErrorBoundary: ErrorScreen,
    children: [
      // The first screen of every visit: part of the entry, so it paints without a second trip.
      { path: '/auth/sign-in', Component: SignInPage },
      { path: '/public', Component: Outlet, children: [{ path: '*', Component: NotFound }] },
      {
        path: '/',
        element: (
          <RequireAuth>
            <Outlet />
          </RequireAuth>
        ),
        children: [
          {
            lazy: async () => ({ Component: (await import('./layout/AppLayout')).AppLayout }),
            children: [
              {
                ErrorBoundary: ErrorScreen,
                children: [
                  { index: true, ...screen(() => import('../features/dashboard/DashboardPage')) },
                  {
                    path: 'masterApp',
                    ...screen(() => import('../features/master-apps/MasterAppsPage')),
                  },
                  { path: 'profile', ...screen(() => import('../features/account/ProfilePage')) },
                  { path: 'banner', ...screen(() => import('../features/banners/BannersPage')) },
                  { path: 'blogs', ...screen(() => import('../features/blogs/BlogsPage')) },
                  {
                    path: 'blogs/detail/:id',
                    ...screen(() => import('../features/blogs/BlogDetailPage')),
                  },
                  { path: 'pages', ...screen(() => import('../features/pages/PagesPage')) },
                  {
                    path: 'pages/detail/:id',
                    ...screen(() => import('../features/pages/PageDetailPage')),
                  },
                  { path: 'faqs', ...screen(() => import('../features/faqs/FaqsPage')) },
                  {
                    path: 'category',
                    ...screen(() => import('../features/categories/CategoriesPage')),
                  },
                  {
                    path: 'special-day',
                    ...screen(() => import('../features/special-days/SpecialDaysPage')),
                  },
                  { path: 'poster', ...screen(() => import('../features/posters/PostersPage')) },
                  { path: 'video', ...screen(() => import('../features/videos/VideosPage')) },
                  {
                    path: 'contact-us',
                    ...screen(() => import('../features/contact-us/ContactUsPage')),
                  },
                  {
                    path: 'settings',
                    ...screen(() => import('../features/settings/SettingsPage')),
                  },
                  {
                    path: 'notification',
                    ...screen(() => import('../features/notifications/NotificationsPage')),
                  },
                  { path: 'users', ...screen(() => import('../features/users/UsersPage')) },
                  { path: 'users/:id', ...screen(() => import('../features/users/UserPage')) },
                  { path: 'top/:id', ...screen(() => import('../features/users/ImagesPage')) },
                  { path: 'self/:id', ...screen(() => import('../features/users/ImagesPage')) },
                  { path: 'bottom/:id', ...screen(() => import('../features/users/ImagesPage')) },
                  {
                    path: 'login-history',
                    ...screen(() => import('../features/users/LoginHistoryPage')),
                  },
                  { path: '*', Component: NotFound },
                ],
              },
            ],
          },
        ],
      },
    ],
  },
];

type AppRouter = ReturnType<typeof createBrowserRouter>;

/** When the server stops accepting the token: sign in again, then come back here. */
export function sendToSignInOnUnauthorized(router: AppRouter) {
  setUnauthorizedHandler(() => {
    const { pathname, search, hash } = router.state.location;
    if (pathname === '/auth/sign-in') return;
    void router.navigate('/auth/sign-in', {
      replace: true,
      state: { from: `${pathname}${search}${hash}` } satisfies SignInState,
    });
  });
}

export function createRouter() {
  const router = createBrowserRouter(routes);
  sendToSignInOnUnauthorized(router);
  return router;
}
