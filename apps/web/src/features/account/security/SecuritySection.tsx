import { useState } from 'react';
import { Alert, Button, Grid, Stack, Text, Title } from '@mantine/core';
import { IconCircleCheck, IconShieldLock } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useMyFactors } from '../../../lib/factors';
import { AuthenticatorCard } from './AuthenticatorCard';
import { PasskeysCard } from './PasskeysCard';
import { SessionsCard } from './SessionsCard';

/**
 * How the account signs in: the authenticator app, passkeys, and the sessions signed in now.
 * While the owner requires a second factor this account lacks, it says so first, and shows only
 * what may be used until one is added (the sessions' list would be refused).
 */
export function SecuritySection() {
  const factors = useMyFactors().data;
  const required = factors?.enrolmentRequired === true;
  // Once one is added, a word that every screen is open again.
  const [wasRequired, setWasRequired] = useState(false);
  if (required && !wasRequired) setWasRequired(true);

  return (
    <Stack component="section" aria-labelledby="security-title" gap="md">
      <Title order={2} size="h3" id="security-title">
        Security
      </Title>
      {required && (
        <Alert
          color="orange"
          variant="light"
          icon={<IconShieldLock size={20} />}
          title="A second factor is required"
          role="alert"
        >
          Your organisation requires a second factor. Set up an authenticator app or a passkey to
          continue.
        </Alert>
      )}
      {wasRequired && !required && (
        <Alert
          color="teal"
          variant="light"
          icon={<IconCircleCheck size={20} />}
          title="Your account is protected"
        >
          <Text size="sm" mb="xs">
            You have a second factor now, and every screen is open again.
          </Text>
          <Button component={Link} to="/" size="xs" variant="light" color="teal">
            Go to the dashboard
          </Button>
        </Alert>
      )}
      <Grid>
        <Grid.Col span={{ base: 12, md: 6 }}>
          <AuthenticatorCard factors={factors} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 6 }}>
          <PasskeysCard factors={factors} />
        </Grid.Col>
      </Grid>
      {factors && !required && <SessionsCard />}
    </Stack>
  );
}
