import { Center, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { matchRoutes, Outlet, useMatches } from 'react-router';
import { MESSAGES } from '@master-admin/contract';
import { useMayOpen, type ScreenAccess } from '../lib/permissions';
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
 * The shell's outlet: the screen of the route, shown only to an account that may open it (the
 * route's `handle.access`); any other sees "Access Denied!", and the screen's calls, which the
 * server would refuse, are never made.
 */
export function GuardedOutlet() {
  const matches = useMatches();
  const access = (matches.at(-1)?.handle as ScreenHandle | undefined)?.access ?? {};
  const { allowed, error, retry } = useMayOpen(access);
  if (!access.menu && !access.superAdmin && !access.anyDelete) return <Outlet />;
  if (allowed === undefined) {
    return error ? (
      <RecordLoadError title="Your permissions could not be loaded" error={error} onRetry={retry} />
    ) : (
      <Loading />
    );
  }
  return allowed ? <Outlet /> : <AccessDenied />;
}
