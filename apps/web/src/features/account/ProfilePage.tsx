import {
  Button,
  Grid,
  Paper,
  PasswordInput,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import {
  PATHS,
  passResetBody,
  passResetResponse,
  profile,
  type PassResetBody,
} from '@master-admin/contract';
import { api, errorText } from '../../lib/api';
import { formatDateTime } from '../../lib/format';
import { markFieldErrors } from '../../lib/form-errors';
import { useApiMutation } from '../../lib/mutation';
import { PageHeader } from '../../components/PageHeader';
import { StatusBadge } from '../../components/StatusBadge';
import { UnsavedChangesGuard } from '../../components/LeaveGuard';

const passwordForm = passResetBody
  .extend({ confirmPassword: z.string() })
  .refine((v) => v.confirmPassword === v.newPassword, {
    path: ['confirmPassword'],
    message: 'The two new passwords differ',
  });
type PasswordForm = z.infer<typeof passwordForm>;

function ProfileCard() {
  const me = useQuery({
    queryKey: ['account', 'me'],
    queryFn: () => api.get(PATHS.adminDetail, profile),
  });
  const rows: [string, React.ReactNode][] = me.data
    ? [
        ['Email', me.data.email ?? '—'],
        ['Phone number', me.data.phoneNumber ?? '—'],
        ['Status', <StatusBadge key="s" status={me.data.status} />],
        ['Member since', formatDateTime(me.data.createdAt)],
      ]
    : [];
  return (
    <Paper withBorder p="lg">
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
                <Table.Td>{value}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Paper>
  );
}

function PasswordCard() {
  const form = useForm<PasswordForm>({
    resolver: zodResolver(passwordForm),
    defaultValues: { oldPassword: '', newPassword: '', confirmPassword: '' },
    mode: 'onTouched',
  });
  const change = useApiMutation({
    mutationFn: ({ oldPassword, newPassword }: PassResetBody) =>
      api.post(PATHS.passReset, passResetResponse, { oldPassword, newPassword }),
    onSuccess: () => form.reset(),
  });
  const errors = form.formState.errors;
  return (
    <Paper withBorder p="lg">
      <Title order={3} size="h4" mb="md">
        Change password
      </Title>
      <UnsavedChangesGuard when={form.formState.isDirty} />
      <form
        onSubmit={form.handleSubmit((v) =>
          change.mutateAsync(v).catch((err: unknown) => markFieldErrors(err, form.setError)),
        )}
        noValidate
      >
        <Stack>
          <PasswordInput
            label="Current password"
            autoComplete="current-password"
            {...form.register('oldPassword')}
            error={errors.oldPassword?.message}
            // Mantine's PasswordInput marks only data-invalid; screen readers need aria-invalid.
            aria-invalid={errors.oldPassword ? true : undefined}
          />
          <PasswordInput
            label="New password"
            description="8 to 128 characters"
            autoComplete="new-password"
            {...form.register('newPassword')}
            error={errors.newPassword?.message}
            aria-invalid={errors.newPassword ? true : undefined}
          />
          <PasswordInput
            label="Repeat the new password"
            autoComplete="new-password"
            {...form.register('confirmPassword')}
            error={errors.confirmPassword?.message}
            aria-invalid={errors.confirmPassword ? true : undefined}
          />
          <Button type="submit" loading={change.isPending} style={{ alignSelf: 'flex-start' }}>
            Change password
          </Button>
          <Text size="xs" c="dimmed">
            Your other signed-in sessions end when the password changes.
          </Text>
        </Stack>
      </form>
    </Paper>
  );
}

export default function ProfilePage() {
  return (
    <>
      <PageHeader title="Account" description="Your own profile and password." />
      <Grid>
        <Grid.Col span={{ base: 12, md: 6 }}>
          <ProfileCard />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 6 }}>
          <PasswordCard />
        </Grid.Col>
      </Grid>
    </>
  );
}
