import { Anchor, Group, Paper, Stack, Switch, Text } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { MESSAGES } from '@master-admin/contract';
import { BackLink, RecordLoadError, RecordNotFound } from '../../components/DetailStates';
import { AccessDenied } from '../../components/AccessDenied';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { ApiError } from '../../lib/api';
import { formatDateTime } from '../../lib/format';
import { useMenuPermissions, useMenus, useSetPermission, useStaffProfile } from './api';
import { KIND_LABELS } from './PermissionGrid';
import { idFrom } from './StaffProfilePage';
import { staffName } from './StaffDialogs';

/** One menu's permissions for one staff account, each switch saved as it changes. */
export default function MenuPermissionsPage() {
  const routeParams = useParams();
  const menuId = idFrom(routeParams.id);
  const accountId = idFrom(routeParams.accountId);
  const query = useMenuPermissions(menuId, accountId);
  const staff = useStaffProfile(accountId);
  const menus = useMenus();
  const set = useSetPermission('permissions');
  const back =
    accountId !== undefined ? (
      <BackLink
        to={`/account/staff/profile/${accountId}`}
        label="All permissions of this account"
      />
    ) : (
      <BackLink to="/staff-details" label="All staff" />
    );

  if (query.error instanceof ApiError && query.error.status === 403) return <AccessDenied />;
  if (
    menuId === undefined ||
    accountId === undefined ||
    (query.error instanceof ApiError && query.error.status === 404)
  ) {
    return (
      <>
        {back}
        <RecordNotFound
          title="No such permissions"
          description={
            query.error instanceof ApiError && query.error.message
              ? query.error.message
              : 'The address names no menu or no staff account.'
          }
          backTo="/staff-details"
          backLabel="Back to staff"
        />
      </>
    );
  }
  if (query.isError) {
    return (
      <>
        {back}
        <RecordLoadError
          title="Could not load the permissions"
          error={query.error}
          onRetry={query.refetch}
        />
      </>
    );
  }
  if (!query.data) return <Loading />;

  const menu = menus.data?.find((m) => m.id === menuId);
  const who = staff.data ? staffName(staff.data) : `account ${accountId}`;
  return (
    <>
      {back}
      <PageHeader
        title={menu ? `${menu.title}: permissions` : 'Permissions'}
        description={`What ${who} may do in this menu. Each change is saved at once.`}
      />
      <Paper withBorder radius="md" p="md" maw={520}>
        <Stack gap="md">
          {query.data.result.map((entry) => (
            <Group key={entry.id} justify="space-between" wrap="nowrap">
              <div>
                <Text fw={500}>{KIND_LABELS[entry.permission.name]}</Text>
                <Text size="xs" c="dimmed">
                  Changed {formatDateTime(entry.updatedAt)}
                </Text>
              </div>
              <Switch
                aria-label={`${menu?.title ?? 'Menu'}: ${KIND_LABELS[entry.permission.name]}`}
                checked={entry.status}
                disabled={set.isPending}
                onChange={(e) => set.mutate({ id: entry.id, status: e.currentTarget.checked })}
              />
            </Group>
          ))}
          {query.data.result.length === 0 && <Text c="dimmed">{MESSAGES.permissionNotFound}</Text>}
        </Stack>
      </Paper>
      <Text size="sm" mt="md">
        <Anchor component={Link} to="/menus">
          Manage menus
        </Anchor>
      </Text>
    </>
  );
}
