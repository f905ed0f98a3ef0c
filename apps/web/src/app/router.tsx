import type { ComponentType } from 'react';
import { Outlet, createBrowserRouter, type RouteObject } from 'react-router';
import { setUnauthorizedHandler } from '../lib/api';
import { takeEarlyFactors, takeEarlyGrants } from '../lib/early-grants';
import { Loading } from '../components/Loading';
import { NotFound } from '../components/NotFound';
import { ErrorScreen } from '../components/ErrorScreen';
import type { ScreenHandle } from '../components/AccessDenied';
import type { ScreenAccess } from '../lib/permissions';
import { TRASH_MENUS } from '../lib/trash-menus';
import { RequireAuth, type SignInState } from './layout/RequireAuth';
import SignInPage from '../features/auth/SignInPage';

/**
 * A route whose screen is loaded on demand ("Loading..." meanwhile). `access` says who may open
 * it (API.md, Roles and permissions): VIEW on a menu, or only a SUPER_ADMIN; anyone else sees
 * "Access Denied!" and the screen's calls are not made (the shell's GuardedOutlet).
 */
function screen(
  load: () => Promise<{ default: ComponentType }>,
  access: ScreenAccess = {},
): Pick<RouteObject, 'lazy' | 'handle'> {
  return {
    lazy: async () => ({ Component: (await load()).default }),
    handle: { access } satisfies ScreenHandle,
  };
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
            // With the account's grants and factors when the preload script read them
            // (early-grants.ts).
            lazy: async () => {
              const [layout, grants, factors] = await Promise.all([
                import('./layout/AppLayout'),
                takeEarlyGrants(),
                takeEarlyFactors(),
              ]);
              if (grants) layout.rememberGrants(grants);
              layout.rememberFactors(factors);
              return { Component: layout.AppLayout };
            },
            children: [
              {
                ErrorBoundary: ErrorScreen,
                children: [
                  {
                    index: true,
                    ...screen(() => import('../features/dashboard/DashboardPage'), {
                      menu: 'dashboard',
                    }),
                  },
                  {
                    path: 'masterApp',
                    ...screen(() => import('../features/master-apps/MasterAppsPage'), {
                      menu: 'masterApp',
                    }),
                  },
                  { path: 'profile', ...screen(() => import('../features/account/ProfilePage')) },
                  {
                    path: 'banner',
                    ...screen(() => import('../features/banners/BannersPage'), { menu: 'banner' }),
                  },
                  {
                    path: 'blogs',
                    ...screen(() => import('../features/blogs/BlogsPage'), { menu: 'blogs' }),
                  },
                  {
                    path: 'blogs/detail/:id',
                    ...screen(() => import('../features/blogs/BlogDetailPage'), { menu: 'blogs' }),
                  },
                  {
                    path: 'pages',
                    ...screen(() => import('../features/pages/PagesPage'), { menu: 'pages' }),
                  },
                  {
                    path: 'pages/detail/:id',
                    ...screen(() => import('../features/pages/PageDetailPage'), { menu: 'pages' }),
                  },
                  {
                    path: 'faqs',
                    ...screen(() => import('../features/faqs/FaqsPage'), { menu: 'faqs' }),
                  },
                  {
                    path: 'category',
                    ...screen(() => import('../features/categories/CategoriesPage'), {
                      menu: 'category',
                    }),
                  },
                  {
                    path: 'special-day',
                    ...screen(() => import('../features/special-days/SpecialDaysPage'), {
                      menu: 'specialDay',
                    }),
                  },
                  {
                    path: 'poster',
                    ...screen(() => import('../features/posters/PostersPage'), { menu: 'poster' }),
                  },
                  {
                    path: 'video',
                    ...screen(() => import('../features/videos/VideosPage'), { menu: 'video' }),
                  },
                  {
                    path: 'contact-us',
                    ...screen(() => import('../features/contact-us/ContactUsPage'), {
                      menu: 'contactUs',
                    }),
                  },
                  {
                    path: 'settings',
                    ...screen(() => import('../features/settings/SettingsPage'), {
                      menu: 'settings',
                    }),
                  },
                  {
                    path: 'notification',
                    ...screen(() => import('../features/notifications/NotificationsPage'), {
                      menu: 'notification',
                    }),
                  },
                  {
                    path: 'staff-details',
                    ...screen(() => import('../features/staff/StaffPage'), { superAdmin: true }),
                  },
                  {
                    path: 'account/staff/profile/:id',
                    ...screen(() => import('../features/staff/StaffProfilePage'), {
                      superAdmin: true,
                    }),
                  },
                  {
                    path: 'permissions/:id/:accountId',
                    ...screen(() => import('../features/staff/MenuPermissionsPage'), {
                      superAdmin: true,
                    }),
                  },
                  {
                    path: 'trash',
                    ...screen(() => import('../features/trash/TrashPage'), {
                      anyDelete: TRASH_MENUS,
                    }),
                  },
                  {
                    path: 'audit-log',
                    ...screen(() => import('../features/audit/AuditLogPage'), { superAdmin: true }),
                  },
                  {
                    path: 'menus',
                    ...screen(() => import('../features/staff/MenusPage'), { superAdmin: true }),
                  },
                  {
                    path: 'users',
                    ...screen(() => import('../features/users/UsersPage'), { menu: 'users' }),
                  },
                  {
                    path: 'users/:id',
                    ...screen(() => import('../features/users/UserPage'), { menu: 'users' }),
                  },
                  {
                    path: 'top/:id',
                    ...screen(() => import('../features/users/ImagesPage'), { menu: 'users' }),
                  },
                  {
                    path: 'self/:id',
                    ...screen(() => import('../features/users/ImagesPage'), { menu: 'users' }),
                  },
                  {
                    path: 'bottom/:id',
                    ...screen(() => import('../features/users/ImagesPage'), { menu: 'users' }),
                  },
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
