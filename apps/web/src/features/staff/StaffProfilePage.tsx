import { useState } from 'react';
import { Button, Group, Paper, SimpleGrid, Stack } from '@mantine/core';
import { IconPencil } from '@tabler/icons-react';
import { useNavigate, useParams } from 'react-router';
import {
  BackLink,
  DetailFact,
  RecordLoadError,
  RecordNotFound,
} from '../../components/DetailStates';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { RowActions } from '../../components/RowActions';
import { StatusBadge } from '../../components/StatusBadge';
import { ApiError } from '../../lib/api';
import { formatDateTime } from '../../lib/format';
import { useStaffProfile } from './api';
import { PermissionGrid } from './PermissionGrid';
import { StaffSessionsCard } from './StaffSessionsCard';
import {
  StaffDialogs,
  staffName,
  useConfirmDeleteStaff,
  useConfirmResetFactors,
  type StaffDialog,
} from './StaffDialogs';

/** The id in the address, or undefined when it cannot name an account. */
export function idFrom(param: string | undefined): number | undefined {
  return param && /^[1-9]\d{0,9}$/.test(param) ? Number(param) : undefined;
}

/** One staff member: the details, and what they may do menu by menu. */
export default function StaffProfilePage() {
  const id = idFrom(useParams().id);
  const query = useStaffProfile(id);
  const navigate = useNavigate();
  const [dialog, setDialog] = useState<StaffDialog>(null);
  const confirmDelete = useConfirmDeleteStaff(() => void navigate('/staff-details'));
  const confirmReset = useConfirmResetFactors();
  const back = <BackLink to="/staff-details" label="All staff" />;

  if (id === undefined || (query.error instanceof ApiError && query.error.status === 404)) {
    return (
      <>
        {back}
        <RecordNotFound
          title="Staff member not found"
          description="The address is wrong, or it names an account that is not staff."
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
          title="Could not load the staff member"
          error={query.error}
          onRetry={query.refetch}
        />
      </>
    );
  }
  if (!query.data) return <Loading />;

  const { perms, ...staff } = query.data;
  return (
    <>
      {back}
      <PageHeader
        title={staffName(staff)}
        description={staff.roles ? `Staff · ${staff.roles}` : 'Staff'}
        actions={
          <Group gap="sm" wrap="nowrap">
            <Button
              leftSection={<IconPencil size={18} />}
              variant="default"
              onClick={() => setDialog({ kind: 'edit', staff })}
            >
              Edit
            </Button>
            <RowActions
              history={{ area: 'staff', id: staff.id }}
              label={staffName(staff)}
              actions={[
                {
                  label: 'Change password',
                  onClick: () => setDialog({ kind: 'password', staff }),
                },
                { label: 'Change status', onClick: () => setDialog({ kind: 'status', staff }) },
                {
                  label: 'Reset second factors',
                  danger: true,
                  allowed: staff.status !== 'DELETED',
                  onClick: () => confirmReset(staff),
                },
                {
                  label: 'Delete',
                  danger: true,
                  allowed: staff.status !== 'DELETED',
                  onClick: () => confirmDelete(staff),
                },
              ]}
            />
          </Group>
        }
      />
      <Stack gap="md">
        <Paper withBorder radius="md" p="md">
          <SimpleGrid cols={{ base: 1, xs: 2, md: 3, lg: 5 }} spacing="md">
            <DetailFact label="Email">{staff.staffDetail[0]?.email ?? '—'}</DetailFact>
            <DetailFact label="Phone">{staff.phoneNumber ?? '—'}</DetailFact>
            <DetailFact label="Job title">{staff.roles ?? '—'}</DetailFact>
            <DetailFact label="Status">
              <StatusBadge status={staff.status} />
            </DetailFact>
            <DetailFact label="Created">{formatDateTime(staff.createdAt)}</DetailFact>
          </SimpleGrid>
        </Paper>
        <StaffSessionsCard accountId={staff.id} name={staffName(staff)} />
        <PermissionGrid accountId={staff.id} perms={perms} />
      </Stack>
      <StaffDialogs dialog={dialog} onClose={() => setDialog(null)} />
    </>
  );
}
