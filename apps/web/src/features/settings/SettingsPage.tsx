import { useState } from 'react';
import { Button, Stack, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { z } from 'zod';
import { settingsCreateBody, type Settings } from '@master-admin/contract';
import { DataTable, type Column } from '../../components/DataTable';
import { ImageFormField, MasterAppFormField, TextFormField } from '../../components/FormFields';
import { FormDialog } from '../../components/FormDialog';
import { MasterAppSelect } from '../../components/MasterAppSelect';
import { PageHeader } from '../../components/PageHeader';
import { RowActions } from '../../components/RowActions';
import { ListToolbar } from '../../components/ListToolbar';
import { Thumbnail, ThumbnailSkeleton } from '../../components/Thumbnail';
import { formatDateTime } from '../../lib/format';
import { useGrants } from '../../lib/permissions';
import { useChangeLogo, useCreateSettings, useSettingsList, useUpdateSettings } from './api';
import { defined } from '../../lib/defined';

const imageFile = z.instanceof(File, { error: 'Choose an image' });

const createForm = settingsCreateBody.extend({
  masterAppId: z.string().min(1, { error: 'Choose a master app' }),
  logo: imageFile,
});
const logoForm = z.object({ logo: imageFile });

const DOMAINS = [
  { field: 'user_domain', label: 'User domain', placeholder: 'app.example.com' },
  { field: 'admin_domain', label: 'Admin domain', placeholder: 'admin.example.com' },
  { field: 'mobile_domain', label: 'Mobile domain', placeholder: 'https://m.example.com' },
] as const;

type Dialog = { kind: 'create' } | { kind: 'edit' | 'logo'; row: Settings } | null;

export default function SettingsPage() {
  const list = useSettingsList();
  const create = useCreateSettings();
  const update = useUpdateSettings();
  const changeLogo = useChangeLogo();
  const grants = useGrants('settings');
  const [dialog, setDialog] = useState<Dialog>(null);
  const openCreate = () => setDialog({ kind: 'create' });
  const [progress, setProgress] = useState<number>();
  const close = () => {
    setDialog(null);
    setProgress(undefined);
  };
  const { filters, setFilter } = list.params;
  const selected = dialog && dialog.kind !== 'create' ? dialog.row : undefined;

  const columns: Column<Settings>[] = [
    {
      key: 'logo',
      header: 'Logo',
      width: 88,
      render: (s) => <Thumbnail src={s.logo} alt={`Logo of ${s.masterApp.name}`} />,
      skeleton: <ThumbnailSkeleton />,
    },
    {
      key: 'title',
      header: 'Title',
      sort: 'title',
      card: 'title',
      render: (s) => (
        <Text size="sm" fw={500} miw={140} style={{ overflowWrap: 'anywhere' }}>
          {s.title}
        </Text>
      ),
    },
    { key: 'app', header: 'Master app', render: (s) => s.masterApp.name },
    {
      key: 'domains',
      header: 'Domains',
      render: (s) => (
        <Stack gap={2} miw={200}>
          {DOMAINS.map(({ field, label }) => (
            <Text key={field} size="sm" style={{ overflowWrap: 'anywhere' }}>
              <Text span size="sm" c="dimmed">
                {label.replace(' domain', '')}:{' '}
              </Text>
              {s[field] ?? (
                <Text span size="sm" c="dimmed">
                  —
                </Text>
              )}
            </Text>
          ))}
        </Stack>
      ),
    },
    {
      key: 'updatedAt',
      header: 'Updated',
      sort: 'updatedAt',
      render: (s) => formatDateTime(s.updatedAt),
    },
  ];

  return (
    <>
      <PageHeader
        title="Settings"
        description="Each app’s logo, title and the domains its sites and mobile app answer on."
        actions={
          grants.create ? (
            <Button leftSection={<IconPlus size={18} />} onClick={openCreate}>
              New settings
            </Button>
          ) : undefined
        }
      />
      <ListToolbar
        search={{ label: 'Search settings', placeholder: 'Search by title', params: list.params }}
      >
        <MasterAppSelect
          w={200}
          value={filters.masterAppId}
          onChange={(v) => setFilter('masterAppId', v)}
        />
      </ListToolbar>
      <DataTable
        label="Settings"
        columns={columns}
        rows={list.rows}
        total={list.total}
        rowKey={(s) => s.id}
        params={list.params}
        query={list.query}
        rowName={(s) => `Settings of ${s.masterApp.name}`}
        empty={{
          title: 'No settings yet',
          description:
            'Each app has one settings row: its logo, its title and the domains its sites and mobile app answer on.',
          action: grants.create
            ? { label: 'Add the first app’s settings', onClick: openCreate }
            : undefined,
        }}
        actions={(s) => (
          <RowActions
            history={{ area: 'settings', id: s.id }}
            label={`Settings of ${s.masterApp.name}`}
            actions={[
              {
                label: 'Edit',
                allowed: grants.update,
                onClick: () => setDialog({ kind: 'edit', row: s }),
              },
              {
                label: 'Change logo',
                allowed: grants.update,
                onClick: () => setDialog({ kind: 'logo', row: s }),
              },
            ]}
          />
        )}
      />

      <FormDialog
        opened={dialog?.kind === 'create'}
        onClose={close}
        title="New settings"
        long
        draft={{ form: 'settings' }}
        schema={createForm}
        defaultValues={{
          masterAppId: filters.masterAppId,
          title: '',
          user_domain: '',
          admin_domain: '',
          mobile_domain: '',
        }}
        submitLabel="Create"
        onSubmit={({ masterAppId, ...v }) =>
          create.mutateAsync({ ...v, masterAppId: Number(masterAppId), onProgress: setProgress })
        }
      >
        {() => (
          <>
            <MasterAppFormField description="One settings row per app" />
            <ImageFormField name="logo" label="Logo" required progress={progress} />
            <SettingsFields />
          </>
        )}
      </FormDialog>

      <FormDialog
        opened={dialog?.kind === 'edit'}
        onClose={close}
        presence={
          selected
            ? { area: 'settings', id: selected.id, label: selected.masterApp.name }
            : undefined
        }
        title={`Edit settings of ${selected?.masterApp.name ?? ''}`}
        schema={settingsCreateBody}
        defaultValues={{
          title: selected?.title ?? '',
          user_domain: selected?.user_domain ?? '',
          admin_domain: selected?.admin_domain ?? '',
          mobile_domain: selected?.mobile_domain ?? '',
        }}
        submitLabel="Save"
        version={selected?.version}
        draft={selected && { form: 'settings', id: selected.id }}
        onSubmit={(v, { ifMatch }) => update.mutateAsync({ row: defined(selected), ifMatch, ...v })}
      >
        {() => <SettingsFields />}
      </FormDialog>

      <FormDialog
        opened={dialog?.kind === 'logo'}
        onClose={close}
        presence={
          selected
            ? { area: 'settings', id: selected.id, label: selected.masterApp.name }
            : undefined
        }
        title={`Change logo of ${selected?.masterApp.name ?? ''}`}
        schema={logoForm}
        defaultValues={{}}
        submitLabel="Upload"
        version={selected?.version}
        onSubmit={(v, { ifMatch }) =>
          changeLogo.mutateAsync({
            id: defined(selected).id,
            ifMatch,
            logo: v.logo,
            onProgress: setProgress,
          })
        }
      >
        {() => (
          <ImageFormField
            name="logo"
            label="Logo"
            required
            current={selected?.logo}
            progress={progress}
          />
        )}
      </FormDialog>
    </>
  );
}

/** Title and the three optional domains, checked with the server's rule before sending. */
function SettingsFields() {
  return (
    <>
      <TextFormField name="title" label="Title" required />
      <Text size="sm" c="dimmed">
        Domains are optional: a host name (app.example.com) or an http(s) URL.
      </Text>
      {DOMAINS.map(({ field, label, placeholder }) => (
        <TextFormField name={field} key={field} label={label} placeholder={placeholder} />
      ))}
    </>
  );
}
