import { useState } from 'react';
import { Anchor, Badge, Button, Stack, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import type { Staff } from '@master-admin/contract';
import { DataTable, type Column } from '../../components/DataTable';
import { FilterSelect } from '../../components/FilterSelect';
import { PageHeader } from '../../components/PageHeader';
import { RowActions } from '../../components/RowActions';
import { ListToolbar } from '../../components/ListToolbar';
import { STATUS_OPTIONS, statusColumn } from '../../components/StatusBadge';
import { formatDateTime } from '../../lib/format';
import { useSecuritySettings, useStaffList, useStaffStatus } from './api';
import { StaffDialogs, staffName, useConfirmDeleteStaff, type StaffDialog } from './StaffDialogs';
import { SecuritySettingCard } from './SecuritySettingCard';

export const staffProfilePath = (id: number) => `/account/staff/profile/${id}`;

/** The staff list (SUPER_ADMIN only): who works in the back-office, and what they may do. */
export default function StaffPage() {
  const list = useStaffList();
  const changeStatus = useStaffStatus();
  const navigate = useNavigate();
  const confirmDelete = useConfirmDeleteStaff();
  const [dialog, setDialog] = useState<StaffDialog>(null);
  const { filters, setFilter } = list.params;
  // A missing factor is flagged when the owner requires one (the member must set one up first).
  const required = useSecuritySettings().data?.requireSecondFactor === true;

  const columns: Column<Staff>[] = [
    {
      key: 'name',
      header: 'Name',
      card: 'title',
      render: (s) => (
        <Stack gap={0}>
          <Anchor component={Link} to={staffProfilePath(s.id)} fw={500} size="sm">
            {staffName(s)}
          </Anchor>
          <Text size="xs" c="dimmed">
            {s.staffDetail[0]?.email}
          </Text>
        </Stack>
      ),
    },
    { key: 'phoneNumber', header: 'Phone', width: 170, render: (s) => s.phoneNumber ?? '—' },
    { key: 'roles', header: 'Job title', width: 160, render: (s) => s.roles ?? '—' },
    {
      key: 'secondFactor',
      header: 'Second factor',
      width: 140,
      render: (s) =>
        s.secondFactor ? (
          <Badge color="teal" variant="dot" tt="none">
            Set up
          </Badge>
        ) : (
          <Badge color={required ? 'red' : 'gray'} variant="dot" tt="none">
            {required ? 'Missing' : 'None'}
          </Badge>
        ),
    },
    statusColumn({
      subject: staffName,
      sortable: false,
      onChange: (s, status) => changeStatus.mutate({ id: s.id, status, ifMatch: s.version }),
    }),
    {
      key: 'createdAt',
      header: 'Created',
      width: 170,
      render: (s) => formatDateTime(s.createdAt),
    },
  ];
  const openCreate = () => setDialog({ kind: 'create' });

  return (
    <>
      <PageHeader
        title="Staff"
        description="The people who work in this back-office. Open one to choose, menu by menu, what they may do."
        actions={
          <Button leftSection={<IconPlus size={18} />} onClick={openCreate}>
            New staff member
          </Button>
        }
      />
      <SecuritySettingCard />
      <ListToolbar
        search={{ label: 'Search staff', placeholder: 'Name, email or phone', params: list.params }}
      >
        <FilterSelect
          label="Status"
          data={STATUS_OPTIONS}
          value={filters.status}
          onChange={(v) => setFilter('status', v)}
        />
      </ListToolbar>
      <DataTable
        label="Staff"
        columns={columns}
        rows={list.rows}
        total={list.total}
        rowKey={(s) => s.id}
        params={list.params}
        query={list.query}
        rowName={staffName}
        minWidth={760}
        empty={{
          title: 'No staff yet',
          description:
            'Add a colleague, then choose what they may see and change. Deleted staff show under the Deleted status.',
          action: { label: 'Add the first staff member', onClick: openCreate },
        }}
        actions={(s) => (
          <RowActions
            history={{ area: 'staff', id: s.id }}
            label={staffName(s)}
            actions={[
              { label: 'Permissions', onClick: () => void navigate(staffProfilePath(s.id)) },
              { label: 'Edit', onClick: () => setDialog({ kind: 'edit', staff: s }) },
              {
                label: 'Change password',
                onClick: () => setDialog({ kind: 'password', staff: s }),
              },
              { label: 'Change status', onClick: () => setDialog({ kind: 'status', staff: s }) },
              {
                label: 'Delete',
                danger: true,
                allowed: s.status !== 'DELETED',
                onClick: () => confirmDelete(s),
              },
            ]}
          />
        )}
      />
      <StaffDialogs dialog={dialog} onClose={() => setDialog(null)} />
    </>
  );
}
