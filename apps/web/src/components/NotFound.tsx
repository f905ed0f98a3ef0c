import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';

export function NotFound() {
  return (
    <Center mih="60vh" p="md">
      <Stack align="center" gap="xs">
        <Text fz={64} fw={800} c="dimmed" lh={1}>
          404
        </Text>
        <Title order={2}>Page not found</Title>
        <Text c="dimmed" ta="center">
          There is nothing at this address.
        </Text>
        <Button component={Link} to="/" variant="light" mt="sm">
          Go to the dashboard
        </Button>
      </Stack>
    </Center>
  );
}
