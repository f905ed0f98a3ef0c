import type { ReactNode } from 'react';
import { Group, Text, Title } from '@mantine/core';

export function PageHeader(props: { title: string; description?: string; actions?: ReactNode }) {
  return (
    <Group justify="space-between" align="flex-end" mb="md" wrap="wrap" gap="sm">
      <div>
        <Title order={2}>{props.title}</Title>
        {props.description && (
          <Text c="dimmed" size="sm">
            {props.description}
          </Text>
        )}
      </div>
      {props.actions && <Group gap="sm">{props.actions}</Group>}
    </Group>
  );
}
