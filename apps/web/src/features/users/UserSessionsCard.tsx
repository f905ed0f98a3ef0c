import { Paper, Skeleton, Text, Title } from '@mantine/core';
import type { SessionRow } from '@master-admin/contract';
import { confirmAction } from '../../components/confirm';
import { SessionList } from '../../components/SessionList';
import { errorText } from '../../lib/api';
import { useGrants } from '../../lib/permissions';
import { useEndUserSession, useUserSessions } from './api';

/**
 * Where an end user is signed in to the content app now (phone sign-ins through the apps API);
 * staff who may change users can end any of those sessions.
 */
export function UserSessionsCard(props: { accountId: number; name: string }) {
  const sessions = useUserSessions(props.accountId);
  const end = useEndUserSession(props.accountId);
  const mayEnd = useGrants('users').update;

  const confirmEnd = (session: SessionRow) =>
    confirmAction({
      title: 'End this session?',
      message: `${props.name} is signed out of the app on ${session.device} (${session.ip ?? 'address unknown'}) at once, and has to sign in again there with a code sent to the phone.`,
      confirmLabel: 'End session',
      danger: true,
      onConfirm: () => end.mutate(session.id),
    });

  return (
    <Paper withBorder radius="md" p="md" mb="lg">
      <Title order={3} size="h4">
        Sessions
      </Title>
      <Text size="sm" c="dimmed" mb="xs">
        Where {props.name} is signed in to the app now. Any status but Active ends them all.
      </Text>
      {sessions.isPending && <Skeleton h={60} />}
      {sessions.isError && <Text c="red">{errorText(sessions.error)}</Text>}
      {sessions.data &&
        (sessions.data.result.length === 0 ? (
          <Text size="sm">Not signed in to the app anywhere.</Text>
        ) : (
          <SessionList
            label={`App sessions of ${props.name}`}
            sessions={sessions.data.result}
            onEnd={mayEnd ? confirmEnd : undefined}
            ending={end.isPending ? end.variables : undefined}
          />
        ))}
    </Paper>
  );
}
