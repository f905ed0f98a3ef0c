import { useState } from 'react';
import { Anchor, Button, Stack, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { USER_BULK_STATUSES, USER_COLUMNS as TITLES, type User } from '@master-admin/contract';
import { bulkActions } from '../../components/BulkActions';
import { DataTable, type Column } from '../../components/DataTable';
import { FilterSelect } from '../../components/FilterSelect';
import { MasterAppSelect } from '../../components/MasterAppSelect';
import { PageHeader } from '../../components/PageHeader';
import { RowActions } from '../../components/RowActions';
import { ListToolbar } from '../../components/ListToolbar';
import { STATUS_OPTIONS, statusColumn } from '../../components/StatusBadge';
import { Thumbnail, ThumbnailSkeleton } from '../../components/Thumbnail';
import { formatDate, formatDateTime } from '../../lib/format';
import { useGrants } from '../../lib/permissions';
import { useChangeUserStatus, useChangeUsersStatus, useUserList } from './api';
import {
  CreateUserDialog,
  UserDialogs,
  userName,
  useUserActions,
  type UserDialog,
} from './UserDialogs';

const TABLE_MIN_WIDTH = 980;

/** The banners of a user's row: small, in their own shape; a dash when there are none. */
export function BannerThumbs(props: { user: User; size?: number }) {
  const { top, bottom } = props.user.userDetail;
  if (!top && !bottom) {
    return (
      <Text size="sm" c="dimmed">
        —
      </Text>
    );
  }
  const name = userName(props.user);
  return (
    <Stack gap={4} align="flex-start">
      <Thumbnail src={top} alt={`Top banner of ${name}`} size={props.size ?? 24} ratio={3} />
      <Thumbnail src={bottom} alt={`Bottom banner of ${name}`} size={props.size ?? 24} ratio={3} />
    </Stack>
  );
}

export default function UsersPage() {
  const list = useUserList();
  const changeStatus = useChangeUserStatus();
  const changeManyStatus = useChangeUsersStatus();
  const grants = useGrants('users');
  const [creating, setCreating] = useState(false);
  const [dialog, setDialog] = useState<UserDialog>(null);
  const actions = useUserActions(setDialog);
  const { filters, setFilter } = list.params;

  const columns: Column<User>[] = [
    {
      key: 'user',
      header: 'User',
      sort: 'name',
      card: 'title',
      render: (u) => (
        <Stack gap={0}>
          <Anchor component={Link} to={`/users/${u.id}`} fw={500} size="sm">
            {userName(u)}
          </Anchor>
          <Text size="xs" c="dimmed">
            {u.phoneNumber}
            {u.userDetail.email ? ` · ${u.userDetail.email}` : ''}
          </Text>
          {u.userDetail.designation && (
            <Text size="xs" c="dimmed">
              {u.userDetail.designation}
            </Text>
          )}
        </Stack>
      ),
    },
    {
      key: 'banners',
      header: 'Banners',
      render: (u) => <BannerThumbs user={u} />,
      skeleton: (
        <Stack gap={4}>
          <ThumbnailSkeleton size={24} ratio={3} />
          <ThumbnailSkeleton size={24} ratio={3} />
        </Stack>
      ),
    },
    { key: 'app', header: TITLES['masterApp.name'], render: (u) => u.masterApp.name },
    {
      key: 'dateLimit',
      header: TITLES.dateLimit,
      sort: 'dateLimit',
      render: (u) => (
        <Text size="sm" c={u.dateLimit ? undefined : 'dimmed'} style={{ whiteSpace: 'nowrap' }}>
          {formatDate(u.dateLimit)}
        </Text>
      ),
    },
    statusColumn<User>({
      subject: userName,
      sortable: true,
      onChange: grants.update
        ? (u, status) => changeStatus.mutate({ id: u.id, status, ifMatch: u.version })
        : undefined,
    }),
    {
      key: 'createdAt',
      header: TITLES.createdAt,
      sort: 'createdAt',
      render: (u) => (
        <Text size="sm" style={{ whiteSpace: 'nowrap' }} title={formatDateTime(u.createdAt)}>
          {formatDate(u.createdAt)}
        </Text>
      ),
    },
  ];

  return (
    <>
      <PageHeader
        title="Users"
        description="The content app’s users, with their banners, numbered images, wallet and sign-ins."
        actions={
          grants.create ? (
            <Button leftSection={<IconPlus size={18} />} onClick={() => setCreating(true)}>
              New user
            </Button>
          ) : undefined
        }
      />
      <ListToolbar
        search={{
          label: 'Search users',
          placeholder: 'Search by name, email or phone',
          params: list.params,
        }}
      >
        <FilterSelect
          label="Status"
          data={STATUS_OPTIONS}
          value={filters.status}
          onChange={(v) => setFilter('status', v)}
        />
        <MasterAppSelect
          w={200}
          value={filters.masterAppId}
          onChange={(v) => setFilter('masterAppId', v)}
        />
      </ListToolbar>
      <DataTable
        label="Users"
        columns={columns}
        rows={list.rows}
        total={list.total}
        rowKey={(u) => u.id}
        params={list.params}
        query={list.query}
        rowName={userName}
        minWidth={TABLE_MIN_WIDTH}
        empty={{
          title: filters.status === 'DELETED' ? 'No deleted users' : 'No users yet',
          description:
            'Users register in the content app, or are added here; deleted users are listed only under the Deleted status.',
          action: grants.create
            ? { label: 'Add the first user', onClick: () => setCreating(true) }
            : undefined,
        }}
        bulkActions={bulkActions({
          subject: 'user',
          grants,
          status: { mutation: changeManyStatus, choices: USER_BULK_STATUSES },
        })}
        actions={(u) => (
          <RowActions
            history={{ area: 'users', id: u.id }}
            label={userName(u)}
            actions={actions(u)}
          />
        )}
      />
      <CreateUserDialog
        opened={creating}
        onClose={() => setCreating(false)}
        masterAppId={filters.masterAppId}
      />
      <UserDialogs dialog={dialog} onClose={() => setDialog(null)} />
    </>
  );
}
