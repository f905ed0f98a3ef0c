import { useState } from 'react';
import {
  Button,
  Group,
  Image,
  Loader,
  Center,
  Paper,
  SimpleGrid,
  Stack,
  Tabs,
  Text,
  Title,
} from '@mantine/core';
import { IconEye } from '@tabler/icons-react';
import { Link, useParams, useSearchParams } from 'react-router';
import {
  BackLink,
  DetailFact,
  RecordLoadError,
  RecordNotFound,
} from '../../components/DetailStates';
import { RowActions } from '../../components/RowActions';
import { StatusBadge } from '../../components/StatusBadge';
import { ApiError } from '../../lib/api';
import { formatDate, formatDateTime } from '../../lib/format';
import { useGrants } from '../../lib/permissions';
import { useUser } from './api';
import { ActivityList, LoginHistoryList, WalletList } from './HistoryLists';
import { PosterPreviewDialog } from './PosterPreview';
import { UserDialogs, userName, useUserActions, type UserDialog } from './UserDialogs';
import { UserSessionsCard } from './UserSessionsCard';

/** The id in the address, or undefined when it cannot name a user. */
export function idFrom(param: string | undefined): number | undefined {
  return param && /^[1-9]\d{0,9}$/.test(param) ? Number(param) : undefined;
}

const GALLERIES = [
  ['top', 'Top images', 'Strips across the top of the user’s posters'],
  ['self', 'Self images', 'The user’s own photos, placed in a lower corner'],
  ['bottom', 'Bottom images', 'Strips across the bottom of the user’s posters'],
] as const;

function Banner(props: { label: string; src: string | null }) {
  return (
    <DetailFact label={props.label}>
      {props.src ? (
        <Image
          src={props.src}
          alt={props.label}
          h={72}
          w="auto"
          maw="100%"
          fit="contain"
          radius="sm"
        />
      ) : (
        <Text size="sm" c="dimmed">
          None yet
        </Text>
      )}
    </DetailFact>
  );
}

const TABS = ['wallet', 'activity', 'history'] as const;
type Tab = (typeof TABS)[number];
/** The tab in the address (`?tab=`); the wallet when it names none. */
const tabFrom = (value: string | null): Tab => TABS.find((t) => t === value) ?? 'wallet';

/**
 * One user: details, banners, the three galleries, their app sessions, and the wallet, activity
 * and login history.
 */
export default function UserPage() {
  const id = idFrom(useParams().id);
  const query = useUser(id);
  const [dialog, setDialog] = useState<UserDialog>(null);
  // The poster preview: a poster picked in the dialog, or one the activity names.
  const [preview, setPreview] = useState<{ posterId?: number } | null>(null);
  const [search, setSearch] = useSearchParams();
  const tab = tabFrom(search.get('tab'));
  const actions = useUserActions(setDialog, { page: true });
  const mayPreview = useGrants('poster').view;
  const back = <BackLink to="/users" label="All users" />;

  if (id === undefined || (query.error instanceof ApiError && query.error.status === 404)) {
    return (
      <>
        {back}
        <RecordNotFound
          title="User not found"
          description="There is no user at this address."
          backTo="/users"
          backLabel="Back to users"
        />
      </>
    );
  }
  if (query.isError) {
    return (
      <>
        {back}
        <RecordLoadError
          title="Could not load the user"
          error={query.error}
          onRetry={query.refetch}
        />
      </>
    );
  }
  if (!query.data) {
    return (
      <>
        {back}
        <Center mih={200}>
          <Loader role="status" aria-label="Loading the user" />
        </Center>
      </>
    );
  }
  const user = query.data;
  const detail = user.userDetail;
  const name = userName(user);

  return (
    <>
      {back}
      <Group justify="space-between" align="flex-start" mb="md" wrap="wrap" gap="sm">
        <div>
          <Group gap="sm">
            <Title order={2}>{name}</Title>
            <StatusBadge status={user.status} />
          </Group>
          <Text c="dimmed" size="sm">
            {user.phoneNumber} · {user.masterApp.name}
          </Text>
        </div>
        <Group gap="sm">
          {mayPreview && (
            <Button leftSection={<IconEye size={18} />} onClick={() => setPreview({})}>
              Preview a poster
            </Button>
          )}
          <RowActions
            history={{ area: 'users', id: user.id }}
            label={name}
            actions={actions(user)}
          />
        </Group>
      </Group>

      <Paper withBorder radius="md" p="md" mb="md">
        <SimpleGrid cols={{ base: 2, md: 4 }} spacing="md">
          <DetailFact label="Name">{detail.name ?? '—'}</DetailFact>
          <DetailFact label="Phone number">{user.phoneNumber}</DetailFact>
          <DetailFact label="Email">{detail.email ?? '—'}</DetailFact>
          <DetailFact label="Designation">{detail.designation ?? '—'}</DetailFact>
          <DetailFact label="Name given by the admin">{detail.adminAssignName ?? '—'}</DetailFact>
          <DetailFact label="Master app">{user.masterApp.name}</DetailFact>
          <DetailFact label="Date limit">{formatDate(user.dateLimit)}</DetailFact>
          <DetailFact label="Registered">{formatDateTime(user.createdAt)}</DetailFact>
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" mt="md">
          <Banner label="Top banner" src={detail.top} />
          <Banner label="Bottom banner" src={detail.bottom} />
        </SimpleGrid>
      </Paper>

      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm" mb="lg">
        {GALLERIES.map(([kind, label, description]) => (
          <Paper key={kind} withBorder radius="md" p="sm">
            <Stack gap={4}>
              <Button component={Link} to={`/${kind}/${user.id}`} variant="light">
                {label}
              </Button>
              <Text size="xs" c="dimmed" ta="center">
                {description}
              </Text>
            </Stack>
          </Paper>
        ))}
      </SimpleGrid>

      <UserSessionsCard accountId={user.id} name={name} />

      <Tabs
        value={tab}
        onChange={(v) =>
          setSearch((prev) => {
            const next = new URLSearchParams(prev);
            const chosen = tabFrom(v);
            if (chosen === 'wallet') next.delete('tab');
            else next.set('tab', chosen);
            return next;
          })
        }
        keepMounted={false}
      >
        <Tabs.List mb="md">
          <Tabs.Tab value="wallet">Wallet</Tabs.Tab>
          <Tabs.Tab value="activity">Activity</Tabs.Tab>
          <Tabs.Tab value="history">Login history</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="wallet">
          <WalletList accountId={user.id} />
        </Tabs.Panel>
        <Tabs.Panel value="activity">
          <ActivityList
            accountId={user.id}
            onPoster={mayPreview ? (posterId) => setPreview({ posterId }) : undefined}
          />
        </Tabs.Panel>
        <Tabs.Panel value="history">
          <LoginHistoryList accountId={user.id} prefix="h." />
        </Tabs.Panel>
      </Tabs>

      <UserDialogs dialog={dialog} onClose={() => setDialog(null)} />
      <PosterPreviewDialog
        opened={preview !== null}
        onClose={() => setPreview(null)}
        masterAppId={user.masterAppId}
        accountId={user.id}
        posterId={preview?.posterId}
        title={
          preview?.posterId === undefined
            ? `A poster as ${name} gets it`
            : `Poster #${preview.posterId} as ${name} gets it`
        }
      />
    </>
  );
}
