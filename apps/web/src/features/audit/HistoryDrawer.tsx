import { Alert, Drawer, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import type { AuditArea } from '@master-admin/contract';
import { errorText } from '../../lib/api';
import { useTopLayer } from '../../lib/layers';
import { formatDateTime } from '../../lib/format';
import { HISTORY_LIMIT, useRowHistory } from './api';
import { ActionBadge, ChangesTable } from './AuditChanges';

/** One row's audit entries, newest first, each with its changed fields. */
export default function HistoryDrawer(props: {
  target: { area: AuditArea; id: number; label: string } | undefined;
  onClose: () => void;
}) {
  const history = useRowHistory(props.target);
  const onTop = useTopLayer(props.target !== undefined);
  const total = history.data?.total ?? 0;
  return (
    <Drawer
      opened={props.target !== undefined}
      onClose={props.onClose}
      closeOnEscape={onTop}
      position="right"
      size="lg"
      title={<Text fw={600}>History of {props.target?.label}</Text>}
    >
      {history.isPending ? (
        <Group justify="center" py="xl">
          <Loader size="sm" role="status" aria-label="Loading the history" />
        </Group>
      ) : history.isError ? (
        <Alert color="red" title="The history could not be loaded">
          {errorText(history.error)}
        </Alert>
      ) : history.data.result.length === 0 ? (
        <Text c="dimmed">No change has been recorded for this row.</Text>
      ) : (
        <Stack gap="sm">
          {total > HISTORY_LIMIT && (
            <Text size="sm" c="dimmed">
              The latest {HISTORY_LIMIT} of {total} changes.
            </Text>
          )}
          {history.data.result.map((e) => (
            <Paper key={e.id} withBorder p="sm" radius="md">
              <Group justify="space-between" mb="xs" wrap="wrap" gap="xs">
                <ActionBadge action={e.action} />
                <Text size="sm" c="dimmed">
                  {formatDateTime(e.createdAt)}
                </Text>
              </Group>
              <Text size="sm" mb="xs">
                By {e.accountName ?? `Account #${e.accountId}`}
                {e.ip ? ` from ${e.ip}` : ''}
                {e.device ? ` (${e.device})` : ''}
              </Text>
              <ChangesTable changes={e.changes} />
            </Paper>
          ))}
        </Stack>
      )}
    </Drawer>
  );
}
