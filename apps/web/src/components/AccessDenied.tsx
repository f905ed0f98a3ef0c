import type { ComponentType } from 'react';
import { Center, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { MESSAGES } from '@master-admin/contract';
import { useMayOpen, type ScreenAccess } from '../lib/permissions';
import { Loading } from './Loading';
import { RecordLoadError } from './DetailStates';

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

/**
 * Shows `Screen` only to an account that may open it; any other sees "Access Denied!", and the
 * screen's calls, which the server would refuse, are never made.
 */
export function guarded(access: ScreenAccess, Screen: ComponentType): ComponentType {
  if (!access.menu && !access.superAdmin) return Screen;
  function Guarded() {
    const { allowed, error, retry } = useMayOpen(access);
    if (allowed === undefined) {
      return error ? (
        <RecordLoadError
          title="Your permissions could not be loaded"
          error={error}
          onRetry={retry}
        />
      ) : (
        <Loading />
      );
    }
    return allowed ? <Screen /> : <AccessDenied />;
  }
  Guarded.displayName = `Guarded(${Screen.displayName ?? Screen.name})`;
  return Guarded;
}
