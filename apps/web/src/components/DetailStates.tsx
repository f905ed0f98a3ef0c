import type { ReactNode } from 'react';
import { Alert, Anchor, Button, EmptyState, Group, Paper, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconArrowLeft, IconFileOff } from '@tabler/icons-react';
import { Link } from 'react-router';
import { errorText } from '../lib/api';

/** "← Blogs": the way back from a detail screen to its list. */
export function BackLink(props: { to: string; label: string }) {
  return (
    <Anchor component={Link} to={props.to} size="sm" mb="sm" display="inline-block">
      <Group gap={4} component="span" wrap="nowrap">
        <IconArrowLeft size={16} />
        {props.label}
      </Group>
    </Anchor>
  );
}

/** A detail screen whose record does not exist (deleted, or a wrong address). */
export function RecordNotFound(props: {
  title: string;
  description: string;
  backTo: string;
  backLabel: string;
}) {
  return (
    <Paper withBorder radius="md" p="xl">
      <EmptyState
        icon={<IconFileOff size={28} />}
        title={props.title}
        description={props.description}
      >
        <EmptyState.Actions>
          <Button component={Link} to={props.backTo} variant="light">
            {props.backLabel}
          </Button>
        </EmptyState.Actions>
      </EmptyState>
    </Paper>
  );
}

/** A detail screen whose record could not be loaded for another reason: the text and a retry. */
export function RecordLoadError(props: { title: string; error: unknown; onRetry: () => unknown }) {
  return (
    <Alert color="red" icon={<IconAlertTriangle size={18} />} title={props.title}>
      <Group justify="space-between">
        <Text size="sm">{errorText(props.error)}</Text>
        <Button size="xs" variant="light" color="red" onClick={() => props.onRetry()}>
          Try again
        </Button>
      </Group>
    </Alert>
  );
}

/** One labelled fact of a detail screen (author, date, status …). */
export function DetailFact(props: { label: string; children: ReactNode }) {
  return (
    // A long email or link breaks inside its own cell instead of running over the next one.
    <Stack gap={2} miw={0}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {props.label}
      </Text>
      <div style={{ overflowWrap: 'anywhere' }}>{props.children}</div>
    </Stack>
  );
}
