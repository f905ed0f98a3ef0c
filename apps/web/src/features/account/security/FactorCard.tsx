import type { ReactNode } from 'react';
import { Badge, Group, Paper, Text, Title } from '@mantine/core';

/**
 * A second factor's card on the profile's Security section: its icon and name, a status badge
 * (when there is one to show), what it does, then the card's own content.
 */
export function FactorCard(props: {
  icon: ReactNode;
  title: string;
  badge?: { label: ReactNode; color: string } | undefined;
  description: ReactNode;
  children: ReactNode;
}) {
  return (
    <Paper withBorder p="lg" h="100%">
      <Group justify="space-between" wrap="nowrap" mb={4}>
        <Group gap="xs" wrap="nowrap">
          {props.icon}
          <Title order={3} size="h4">
            {props.title}
          </Title>
        </Group>
        {props.badge && (
          <Badge variant="dot" color={props.badge.color}>
            {props.badge.label}
          </Badge>
        )}
      </Group>
      <Text size="sm" c="dimmed" mb="md">
        {props.description}
      </Text>
      {props.children}
    </Paper>
  );
}
