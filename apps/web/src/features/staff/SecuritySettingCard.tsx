import { useId } from 'react';
import { Paper, Skeleton, Switch, Text } from '@mantine/core';
import { errorText } from '../../lib/api';
import { confirmAction } from '../../components/confirm';
import { useSecuritySettings, useSetSecuritySettings } from './api';

/**
 * The owner's setting (SUPER_ADMIN): whether every staff member must have a second factor. On,
 * a staff member without one can only set one up after signing in; each change is confirmed.
 */
export function SecuritySettingCard() {
  const settings = useSecuritySettings();
  const save = useSetSecuritySettings();
  const on = settings.data?.requireSecondFactor ?? false;
  const describedBy = useId();

  const ask = (next: boolean) =>
    confirmAction(
      next
        ? {
            title: 'Require a second factor for all staff?',
            message:
              'Staff without an authenticator app or a passkey must set one up when they next sign in, before they can do anything else. Staff who have one are asked for it at every sign-in.',
            confirmLabel: 'Require it',
            onConfirm: () => save.mutate(true),
          }
        : {
            title: 'Stop requiring a second factor?',
            message:
              'Staff may then sign in with a password alone. Those who set up a second factor keep using it.',
            confirmLabel: 'Stop requiring it',
            danger: true,
            onConfirm: () => save.mutate(false),
          },
    );

  return (
    <Paper withBorder radius="md" p="md" mb="md">
      {settings.isPending ? (
        <Skeleton h={44} />
      ) : settings.isError ? (
        <Text c="red" size="sm">
          {errorText(settings.error)}
        </Text>
      ) : (
        <>
          {/* The description outside the switch's label (Mantine puts it inside), so the switch's
              name is its label alone. */}
          <Switch
            checked={on}
            disabled={save.isPending}
            onChange={(event) => ask(event.currentTarget.checked)}
            label="Require a second factor for all staff"
            aria-describedby={describedBy}
            size="md"
            fw={500}
          />
          <Text id={describedBy} size="sm" c="dimmed" mt={4} pl={62}>
            {on
              ? 'On: every staff member signs in with a password and an authenticator app code, or with a passkey.'
              : 'Off: staff may sign in with a password alone. Turn on to require an authenticator app or a passkey as well.'}
          </Text>
        </>
      )}
    </Paper>
  );
}
