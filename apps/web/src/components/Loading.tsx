import { Center, Group, Loader, Text } from '@mantine/core';

/** Shown while a screen's code or data loads. */
export function Loading() {
  return (
    <Center mih={200} h="100%" role="status">
      <Group gap="sm">
        <Loader size="sm" />
        <Text c="dimmed">Loading...</Text>
      </Group>
    </Center>
  );
}
