import { Button, Center, Code, Stack, Text, Title } from '@mantine/core';
import { isRouteErrorResponse, useRouteError } from 'react-router';

/** A screen that failed to render: "Unexpected Application Error!" with the status or message. */
export function ErrorScreen() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : String(error);
  return (
    <Center mih="60vh" p="md">
      <Stack align="center" gap="sm" maw={560}>
        <Title order={2}>Unexpected Application Error!</Title>
        <Code block>{detail}</Code>
        <Text c="dimmed" ta="center">
          Reload the page to try again. If it keeps happening, tell the team what you did.
        </Text>
        <Button onClick={() => window.location.reload()} variant="light">
          Reload
        </Button>
      </Stack>
    </Center>
  );
}
