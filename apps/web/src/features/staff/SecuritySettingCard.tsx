import { useId } from 'react';
import { Group, Paper, Skeleton, Switch, Text } from '@mantine/core';
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
  const id = useId();

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
        // The label and description beside the switch rather than Mantine's (which puts the
        // description inside the label): the switch's name is its label alone.
        <Group wrap="nowrap" align="flex-start" gap="sm">
          <Switch
            id={id}
            checked={on}
            disabled={save.isPending}
            onChange={(event) => ask(event.currentTarget.checked)}
            aria-describedby={`${id}-description`}
            size="md"
            mt={2}
          />
          <div>
            <Text component="label" htmlFor={id} fw={500} style={{ cursor: 'pointer' }}>
              Require a second factor for all staff
            </Text>
            <Text id={`${id}-description`} size="sm" c="dimmed">
              {on
                ? 'On: every staff member signs in with a password and an authenticator app code, or with a passkey.'
                : 'Off: staff may sign in with a password alone. Turn on to require an authenticator app or a passkey as well.'}
            </Text>
          </div>
        </Group>
      )}
    </Paper>
  );
}
