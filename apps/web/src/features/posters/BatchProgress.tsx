/**
 * A batch on its way (BatchUpload.tsx): a row per file with its progress, result and Retry, and
 * once nothing is left to send, how many were created and which were refused, with the reason.
 */
import { Button, Group, Paper, Progress, ScrollArea, Stack, Text, Title } from '@mantine/core';
import { IconCheck, IconRefresh } from '@tabler/icons-react';
import { usePhone } from '../../lib/phone';
import { BatchSummary, type BatchRow } from './BatchUpload';

const STATE_LABELS: Record<BatchRow['state'], string> = {
  waiting: 'Waiting',
  sending: 'Uploading',
  created: 'Created',
  refused: 'Refused',
};

export function BatchProgress(props: {
  rows: BatchRow[];
  onRetry: (key: number) => void;
  onClose: () => void;
}) {
  const phone = usePhone();
  const { rows } = props;
  const done = rows.filter((r) => r.state === 'created' || r.state === 'refused').length;
  const running = done < rows.length;
  if (rows.length === 0) return null;
  const title = running ? `Uploading ${rows.length} posters` : 'Upload finished';
  // A panel above the list, not a dialog: the list stays usable while files go, and no dialog
  // opens as the settings' panel closes.
  return (
    <Paper component="section" withBorder p="md" mb="md" aria-label={title}>
      <Title order={3} size="h4" mb="xs">
        {title}
      </Title>
      <Stack gap="sm">
        <Progress
          value={rows.length ? (done / rows.length) * 100 : 0}
          aria-label="Files done"
          size="sm"
        />
        <Text size="sm" aria-live="polite">
          {done} of {rows.length} done
        </Text>
        {!running && <BatchSummary rows={rows} />}
        <ScrollArea.Autosize mah={phone ? 480 : 420} type="auto">
          <Stack gap={6} component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
            {rows.map((r) => (
              <Paper
                key={r.key}
                component="li"
                withBorder
                p="xs"
                aria-label={r.file.name}
                data-state={r.state}
              >
                <Group justify="space-between" wrap="nowrap" gap="xs">
                  <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
                    {r.file.name}
                  </Text>
                  <Group gap={6} wrap="nowrap">
                    {r.state === 'created' && <IconCheck size={16} aria-hidden />}
                    <Text size="xs" c={r.state === 'refused' ? 'orange.8' : 'dimmed'}>
                      {STATE_LABELS[r.state]}
                    </Text>
                    {r.state === 'refused' && (
                      <Button
                        size="compact-xs"
                        variant="light"
                        leftSection={<IconRefresh size={14} />}
                        aria-label={`Retry ${r.file.name}`}
                        onClick={() => props.onRetry(r.key)}
                      >
                        Retry
                      </Button>
                    )}
                  </Group>
                </Group>
                {r.state === 'sending' && (
                  <Progress
                    mt={4}
                    size="xs"
                    value={r.progress}
                    aria-label={`Upload of ${r.file.name}`}
                  />
                )}
                {r.reason && (
                  <Text size="xs" c="orange.8" mt={2}>
                    {r.reason}
                  </Text>
                )}
              </Paper>
            ))}
          </Stack>
        </ScrollArea.Autosize>
        {!running && (
          <Group justify="flex-end">
            <Button onClick={props.onClose}>Done</Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
