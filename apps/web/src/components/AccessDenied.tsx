import { Center, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { matchRoutes, Navigate, Outlet, useLocation, useMatches } from 'react-router';
import { MESSAGES } from '@master-admin/contract';
import type { MyPermissions } from '@master-admin/contract';
import { allows, useMayOpen, useMyPermissions, type ScreenAccess } from '../lib/permissions';
import { MAIN_NAV, MORE_NAV } from '../app/layout/nav';
import { Loading } from './Loading';
import { RecordLoadError } from './DetailStates';
// The route tree is loaded before any screen: importing it here adds nothing to load.
import { routes } from '../app/router';

/** A screen the signed-in account may not view. */
export function AccessDenied() {
  return (
    <Center mih="60vh" p="md">
      <Stack align="center" gap="xs" maw={420}>
        <ThemeIcon size={56} radius="xl" variant="light" color="red">
          <IconLock size={30} />
        </ThemeIcon>
        <Title order={2}>{MESSAGES.accessDenied}</Title>
        <Text c="dimmed" ta="center">
          Your account may not view this area. Ask the owner of this back-office for access.
        </Text>
      </Stack>
    </Center>
  );
}

/** What a route says about who may open its screen (app/router.tsx). */
export type ScreenHandle = { access?: ScreenAccess };

/** Who may open the screen at `path`: its route's `handle.access`, as the outlet below reads it. */
export function accessAt(path: string): ScreenAccess {
  const route = matchRoutes(routes, path)?.at(-1)?.route;
  return (route?.handle as ScreenHandle | undefined)?.access ?? {};
}

/**
 * Where an account that may not open the dashboard lands instead: the first area of the menu,
 * in its order, that its grants open; with none, the first screen anyone may open (Account).
 */
export function landingOf(grants: MyPermissions): string {
  const links = [...MAIN_NAV, ...MORE_NAV];
  const area = links.find((link) => {
    const access = accessAt(link.to);
    return (access.menu || access.superAdmin) && allows(grants, access);
  });
  return (area ?? links.find((link) => allows(grants, accessAt(link.to))) ?? { to: '/profile' }).to;
}

/**
 * The shell's outlet: the screen of the route, shown only to an account that may open it (the
 * route's `handle.access`); any other sees "Access Denied!", and the screen's calls, which the
 * server would refuse, are never made. The landing (`/`, the dashboard) is the exception: an
 * account that may not open it goes on to its first area (sign-in lands there).
 */
export function GuardedOutlet() {
  const matches = useMatches();
  const { pathname } = useLocation();
  const access = (matches.at(-1)?.handle as ScreenHandle | undefined)?.access ?? {};
  const { allowed, error, retry } = useMayOpen(access);
  const grants = useMyPermissions();
  if (!access.menu && !access.superAdmin && !access.anyDelete) return <Outlet />;
  if (allowed === undefined) {
    return error ? (
      <RecordLoadError title="Your permissions could not be loaded" error={error} onRetry={retry} />
    ) : (
      <Loading />
    );
  }
  if (!allowed && pathname === '/' && grants) return <Navigate to={landingOf(grants)} replace />;
  return allowed ? <Outlet /> : <AccessDenied />;
}
