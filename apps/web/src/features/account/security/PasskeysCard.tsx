import { useState } from 'react';
import { Alert, Button, Group, Skeleton, Stack, Text } from '@mantine/core';
import { IconInfoCircle, IconKey, IconPlus } from '@tabler/icons-react';
import { passkeyRenameBody, type MyFactors, type Passkey } from '@master-admin/contract';
import { errorText } from '../../../lib/api';
import { defined } from '../../../lib/defined';
import { formatAgo, formatDate } from '../../../lib/format';
import { passkeysSupported } from '../../../lib/passkeys';
import { confirmAction } from '../../../components/confirm';
import { FormDialog } from '../../../components/FormDialog';
import { TextFormField } from '../../../components/FormFields';
import { RowActions } from '../../../components/RowActions';
import { useAddPasskey, usePasskeys, useRemovePasskey, useRenamePasskey } from './api';
import { FactorCard } from './FactorCard';

type PasskeyDialog = { kind: 'add' } | { kind: 'rename'; passkey: Passkey } | null;

/** The account's passkeys: each a sign-in on its own, made on a device or in a password manager. */
export function PasskeysCard(props: { factors: MyFactors | undefined }) {
  const supported = passkeysSupported();
  // Listed once the factors say there are any (while one is required first, the list would be
  // refused).
  const passkeys = usePasskeys(props.factors !== undefined && props.factors.passkeys > 0);
  const add = useAddPasskey();
  const rename = useRenamePasskey();
  const remove = useRemovePasskey();
  const [dialog, setDialog] = useState<PasskeyDialog>(null);
  const renaming = dialog?.kind === 'rename' ? dialog.passkey : undefined;
  const list = props.factors?.passkeys === 0 ? [] : passkeys.data?.result;

  const confirmRemove = (passkey: Passkey) =>
    confirmAction({
      title: 'Remove this passkey?',
      message: `“${passkey.name}” no longer signs you in. You may remove it from the device or password manager that holds it, too.`,
      confirmLabel: 'Remove',
      danger: true,
      onConfirm: () => remove.mutate(passkey.id),
    });

  return (
    <FactorCard
      icon={<IconKey size={22} stroke={1.6} aria-hidden />}
      title="Passkeys"
      badge={list && list.length > 0 ? { label: list.length, color: 'teal' } : undefined}
      description="Sign in with your fingerprint, face or screen lock instead of a password and code."
    >
      {!supported && (
        <Alert color="yellow" icon={<IconInfoCircle size={18} />} mb="md">
          This browser cannot make or use passkeys. Open the back-office in a current browser to add
          one.
        </Alert>
      )}
      {passkeys.isError && (
        <Text c="red" size="sm" mb="sm">
          {errorText(passkeys.error)}
        </Text>
      )}
      {list === undefined && !passkeys.isError ? (
        <Skeleton h={48} mb="md" />
      ) : (
        list &&
        list.length > 0 && (
          <Stack component="ul" aria-label="Your passkeys" gap="xs" p={0} m={0} mb="md">
            {list.map((p) => (
              <Group
                component="li"
                key={p.id}
                justify="space-between"
                wrap="nowrap"
                style={{ listStyle: 'none' }}
              >
                <div style={{ minWidth: 0 }}>
                  <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
                    {p.name}
                  </Text>
                  <Text size="xs" c="dimmed">
                    Added {formatDate(p.createdAt)} ·{' '}
                    {p.lastUsedAt ? `last used ${formatAgo(p.lastUsedAt)}` : 'never used'}
                  </Text>
                </div>
                <RowActions
                  label={p.name}
                  actions={[
                    {
                      label: 'Rename',
                      onClick: () => setDialog({ kind: 'rename', passkey: p }),
                    },
                    { label: 'Remove', danger: true, onClick: () => confirmRemove(p) },
                  ]}
                />
              </Group>
            ))}
          </Stack>
        )
      )}
      <Button
        variant={list && list.length > 0 ? 'default' : 'filled'}
        leftSection={<IconPlus size={18} />}
        disabled={!supported}
        onClick={() => setDialog({ kind: 'add' })}
      >
        Add a passkey
      </Button>

      <FormDialog
        opened={dialog?.kind === 'add'}
        onClose={() => setDialog(null)}
        title="Add a passkey"
        schema={passkeyRenameBody}
        defaultValues={{ name: '' }}
        submitLabel="Continue"
        onSubmit={({ name }) => add.mutateAsync(name)}
      >
        {() => (
          <>
            <TextFormField
              name="name"
              label="Name"
              description="To tell your passkeys apart, e.g. Work laptop or iPhone"
              required
              data-autofocus
              autoComplete="off"
            />
            <Text size="sm" c="dimmed">
              Your browser then asks where to keep the passkey and for your fingerprint, face or
              screen lock.
            </Text>
          </>
        )}
      </FormDialog>
      <FormDialog
        opened={renaming !== undefined}
        onClose={() => setDialog(null)}
        title="Rename the passkey"
        schema={passkeyRenameBody}
        defaultValues={{ name: renaming?.name ?? '' }}
        submitLabel="Save"
        onSubmit={({ name }) => rename.mutateAsync({ id: defined(renaming).id, name })}
      >
        {() => (
          <TextFormField name="name" label="Name" required data-autofocus autoComplete="off" />
        )}
      </FormDialog>
    </FactorCard>
  );
}
