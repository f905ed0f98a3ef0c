import { Button, Group, Paper, Skeleton, Text, Title } from '@mantine/core';
import type { SessionRow } from '@master-admin/contract';
import { errorText } from '../../../lib/api';
import { useSignOut } from '../../../lib/sign-out';
import { confirmAction } from '../../../components/confirm';
import { SessionList } from '../../../components/SessionList';
import { useEndMySession, useEndOtherSessions, useMySessions } from './api';

/** Where the account is signed in now; any session but this one can be ended from here. */
export function SessionsCard() {
  const sessions = useMySessions();
  const endOne = useEndMySession();
  const endOthers = useEndOtherSessions();
  const signOut = useSignOut();
  const others = sessions.data?.result.filter((s) => !s.current).length ?? 0;

  const end = (session: SessionRow) =>
    session.current
      ? confirmAction({
          title: 'Sign out of this device?',
          message: 'This is the session you are using now: ending it signs you out here.',
          confirmLabel: 'Sign out',
          danger: true,
          onConfirm: () => void signOut(),
        })
      : confirmAction({
          title: 'End this session?',
          message: `${session.device} (${session.ip ?? 'address unknown'}) is signed out at once and has to sign in again.`,
          confirmLabel: 'End session',
          danger: true,
          onConfirm: () => endOne.mutate(session.id),
        });

  const endAllOthers = () =>
    confirmAction({
      title: 'End every other session?',
      message: `${others === 1 ? 'The other session is' : `All ${others} other sessions are`} signed out at once. This device stays signed in.`,
      confirmLabel: 'End other sessions',
      danger: true,
      onConfirm: () => endOthers.mutate(),
    });

  return (
    <Paper withBorder p="lg">
      <Group justify="space-between" align="flex-start" mb="xs" gap="sm">
        <div>
          <Title order={3} size="h4">
            Signed-in sessions
          </Title>
          <Text size="sm" c="dimmed">
            Where your account is signed in now. End any you do not recognise, then change your
            password.
          </Text>
        </div>
        <Button
          variant="default"
          color="red"
          onClick={endAllOthers}
          disabled={others === 0}
          loading={endOthers.isPending}
        >
          End all other sessions
        </Button>
      </Group>
      {sessions.isPending && <Skeleton h={120} />}
      {sessions.isError && <Text c="red">{errorText(sessions.error)}</Text>}
      {sessions.data && (
        <SessionList
          label="Your sessions"
          sessions={sessions.data.result}
          onEnd={end}
          ending={endOne.isPending ? endOne.variables : undefined}
        />
      )}
    </Paper>
  );
}
