import { Grid, Paper, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { errorText } from '../../lib/api';
import { useProfile } from '../../lib/profile';
import { formatDateTime } from '../../lib/format';
import { useMyFactors } from '../../lib/factors';
import { PageHeader } from '../../components/PageHeader';
import { StatusBadge } from '../../components/StatusBadge';
import { PasswordCard } from './PasswordCard';
import { SecuritySection } from './security/SecuritySection';

function ProfileCard(props: { me: ReturnType<typeof useProfile> }) {
  const { me } = props;
  const rows: [string, React.ReactNode][] = me.data
    ? [
        ['Email', me.data.email ?? '—'],
        ['Phone number', me.data.phoneNumber ?? '—'],
        ['Status', <StatusBadge key="s" status={me.data.status} />],
        ['Member since', formatDateTime(me.data.createdAt)],
      ]
    : [];
  return (
    <Paper withBorder p="lg" h="100%">
      <Title order={3} size="h4" mb="md">
        Profile
      </Title>
      {me.isError && <Text c="red">{errorText(me.error)}</Text>}
      {me.isPending && <Skeleton h={140} />}
      {me.data && (
        <Table variant="vertical" layout="fixed" withRowBorders={false}>
          <Table.Tbody>
            {rows.map(([label, value]) => (
              <Table.Tr key={label}>
                <Table.Th w={140}>{label}</Table.Th>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{value}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Paper>
  );
}

/**
 * The own account: profile, password, and how it signs in (security). While the owner requires a
 * second factor this account lacks (the shell keeps every other screen closed), security comes
 * first and the password waits: the server refuses its change until then.
 */
export default function ProfilePage() {
  const me = useProfile();
  const required = useMyFactors().data?.enrolmentRequired === true;
  return (
    <>
      <PageHeader title="Account" description="Your profile, password and how you sign in." />
      {/* The security section keeps its place in the tree whichever comes first, so adding the
          factor that opens the other screens does not remount it (and lose the recovery codes it
          is showing). */}
      <Stack gap="xl">
        {!required && (
          <Grid>
            <Grid.Col span={{ base: 12, md: 6 }}>
              <ProfileCard me={me} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 6 }}>
              <PasswordCard me={me.data} />
            </Grid.Col>
          </Grid>
        )}
        <SecuritySection />
        {required && <ProfileCard me={me} />}
      </Stack>
    </>
  );
}
