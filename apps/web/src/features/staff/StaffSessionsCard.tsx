import { Paper, Skeleton, Text, Title } from '@mantine/core';
import type { SessionRow } from '@master-admin/contract';
import { errorText } from '../../lib/api';
import { confirmAction } from '../../components/confirm';
import { SessionList } from '../../components/SessionList';
import { useEndStaffSession, useStaffSessions } from './api';

/** Where a staff member is signed in now; the owner may end any of those sessions. */
export function StaffSessionsCard(props: { accountId: number; name: string }) {
  const sessions = useStaffSessions(props.accountId);
  const end = useEndStaffSession();

  const confirmEnd = (session: SessionRow) =>
    confirmAction({
      title: 'End this session?',
      message: `${props.name} is signed out of ${session.device} (${session.ip ?? 'address unknown'}) at once and has to sign in again there.`,
      confirmLabel: 'End session',
      danger: true,
      onConfirm: () => end.mutate({ accountId: props.accountId, id: session.id }),
    });

  return (
    <Paper withBorder radius="md" p="md">
      <Title order={3} size="h4">
        Signed-in sessions
      </Title>
      <Text size="sm" c="dimmed" mb="xs">
        Where {props.name} is signed in now. Changing the password or the status ends them all.
      </Text>
      {sessions.isPending && <Skeleton h={80} />}
      {sessions.isError && <Text c="red">{errorText(sessions.error)}</Text>}
      {sessions.data &&
        (sessions.data.result.length === 0 ? (
          <Text size="sm">Not signed in anywhere.</Text>
        ) : (
          <SessionList
            label={`Sessions of ${props.name}`}
            sessions={sessions.data.result}
            onEnd={confirmEnd}
            ending={end.isPending ? end.variables.id : undefined}
          />
        ))}
    </Paper>
  );
}
