import { Button, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import {
  PASSWORD_MAX,
  PASSWORD_MIN,
  PATHS,
  passResetBody,
  passResetResponse,
  type PassResetBody,
  type Profile,
} from '@master-admin/contract';
import { api } from '../../lib/api';
import { markFieldErrors } from '../../lib/form-errors';
import { useApiMutation } from '../../lib/mutation';
import { usePasswordHint } from '../../components/PasswordStrength';
import { UnsavedChangesGuard } from '../../components/LeaveGuard';

const passwordForm = passResetBody
  .extend({ confirmPassword: z.string() })
  .refine((v) => v.confirmPassword === v.newPassword, {
    path: ['confirmPassword'],
    message: 'The two new passwords differ',
  });
type PasswordForm = z.infer<typeof passwordForm>;

/**
 * The own password: the old one, and a new one whose strength shows as it is typed (checked for
 * the account's email and phone); the server's refusal shows on the field it names.
 */
export function PasswordCard(props: { me: Profile | undefined }) {
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
  const hint = usePasswordHint(
    useWatch({ control: form.control, name: 'newPassword' }),
    { email: props.me?.email, phoneNumber: props.me?.phoneNumber },
    `${PASSWORD_MIN} to ${PASSWORD_MAX} characters, not easy to guess`,
    errors.newPassword?.message,
  );
  return (
    <Paper withBorder p="lg" h="100%">
      <Title order={3} size="h4" mb="md">
        Change password
      </Title>
      <UnsavedChangesGuard when={form.formState.isDirty} />
      <form
        onSubmit={form.handleSubmit((v) =>
          change
            .mutateAsync(v)
            .catch((err: unknown) =>
              markFieldErrors(err, form.setError, (field) => field in form.getValues()),
            ),
        )}
        noValidate
      >
        <Stack>
          {/* The account the new password is for, as the browser's password manager asks. */}
          <input
            type="text"
            name="username"
            autoComplete="username"
            value={props.me?.email ?? props.me?.phoneNumber ?? ''}
            readOnly
            hidden
          />
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
            autoComplete="new-password"
            {...hint}
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
