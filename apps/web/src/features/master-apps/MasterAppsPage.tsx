import { useState } from 'react';
import { ActionIcon, Badge, Button, Group, Text, Tooltip } from '@mantine/core';
import { IconKey, IconPencil, IconPlus } from '@tabler/icons-react';
import { masterAppBody, type MasterApp } from '@master-admin/contract';
import { RowActions } from '../../components/RowActions';
import { DataTable, type Column } from '../../components/DataTable';
import { FormDialog } from '../../components/FormDialog';
import { TextFormField } from '../../components/FormFields';
import { TimeZoneFormField } from './TimeZoneField';
import { PageHeader } from '../../components/PageHeader';
import { ListToolbar } from '../../components/ListToolbar';
import { formatDateTime } from '../../lib/format';
import { useGrants, useMayOpen } from '../../lib/permissions';
import { useCreateMasterApp, useMasterAppList, useRenameMasterApp } from './api';
import { AppKeyDialog } from './AppKeyDialog';

type Dialog =
  | { kind: 'create' }
  | { kind: 'rename'; app: MasterApp }
  | { kind: 'appKey'; app: MasterApp }
  | null;

export default function MasterAppsPage() {
  const list = useMasterAppList();
  const create = useCreateMasterApp();
  const rename = useRenameMasterApp();
  const grants = useGrants('masterApp');
  // App keys are the owner's alone (the server answers 403 to anyone else).
  const mayManageKeys = useMayOpen({ superAdmin: true }).allowed === true;
  const [dialog, setDialog] = useState<Dialog>(null);
  const openCreate = () => setDialog({ kind: 'create' });

  const columns: Column<MasterApp>[] = [
    { key: 'id', header: 'ID', width: 80, render: (a) => <Text c="dimmed">{a.id}</Text> },
    {
      key: 'name',
      header: 'Name',
      sort: 'name',
      card: 'title',
      render: (a) => <Text fw={500}>{a.name}</Text>,
    },
    {
      key: 'timeZone',
      header: 'Time zone',
      render: (a) => (
        <Group gap={6} wrap="nowrap">
          <Text size="sm">{a.timeZone}</Text>
          {a.timeZoneIsDefault && (
            <Tooltip label="The server’s default zone (DEFAULT_TIME_ZONE): this app has none of its own">
              <Badge variant="light" color="gray" tt="none" size="sm">
                Default
              </Badge>
            </Tooltip>
          )}
        </Group>
      ),
    },
    {
      key: 'createdAt',
      header: 'Created',
      sort: 'createdAt',
      render: (a) => formatDateTime(a.createdAt),
    },
  ];

  const renaming = dialog?.kind === 'rename' ? dialog.app : undefined;

  return (
    <>
      <PageHeader
        title="Master Apps"
        description="The apps this back-office serves. Each has its own users, posters, banners and settings."
        actions={
          grants.create ? (
            <Button leftSection={<IconPlus size={18} />} onClick={openCreate}>
              New app
            </Button>
          ) : undefined
        }
      />
      <ListToolbar
        search={{ label: 'Search apps', placeholder: 'Search by name', params: list.params }}
      />
      <DataTable
        label="Master apps"
        columns={columns}
        rows={list.rows}
        total={list.total}
        rowKey={(a) => a.id}
        params={list.params}
        query={list.query}
        rowName={(a) => a.name}
        empty={{
          title: 'No master apps yet',
          description:
            'A master app is one of the apps this back-office serves; users, posters, banners and settings all belong to one.',
          action: grants.create ? { label: 'Add the first app', onClick: openCreate } : undefined,
        }}
        actions={(a) => (
          <Group gap={4} wrap="nowrap">
            {mayManageKeys && (
              <Tooltip label="App key">
                <ActionIcon
                  variant="subtle"
                  aria-label={`App key of ${a.name}`}
                  onClick={() => setDialog({ kind: 'appKey', app: a })}
                >
                  <IconKey size={18} />
                </ActionIcon>
              </Tooltip>
            )}
            {grants.update && (
              <Tooltip label="Edit">
                <ActionIcon
                  variant="subtle"
                  aria-label={`Edit ${a.name}`}
                  onClick={() => setDialog({ kind: 'rename', app: a })}
                >
                  <IconPencil size={18} />
                </ActionIcon>
              </Tooltip>
            )}
            <RowActions label={a.name} actions={[]} history={{ area: 'masterApps', id: a.id }} />
          </Group>
        )}
      />
      <AppKeyDialog
        app={dialog?.kind === 'appKey' ? dialog.app : undefined}
        onClose={() => setDialog(null)}
      />
      <FormDialog
        opened={dialog?.kind === 'create' || dialog?.kind === 'rename'}
        onClose={() => setDialog(null)}
        presence={
          renaming ? { area: 'masterApp', id: renaming.id, label: renaming.name } : undefined
        }
        title={renaming ? `Edit ${renaming.name}` : 'New master app'}
        schema={masterAppBody}
        defaultValues={{
          name: renaming?.name ?? '',
          // '' follows the server's default zone.
          timeZone: renaming && !renaming.timeZoneIsDefault ? renaming.timeZone : '',
        }}
        submitLabel={renaming ? 'Save' : 'Create'}
        version={renaming?.version}
        onSubmit={(values, { ifMatch }) => {
          // Sent as '' (not left out) to go back to the default zone.
          const body = { name: values.name, timeZone: values.timeZone ?? '' };
          return renaming
            ? rename.mutateAsync({ id: renaming.id, ifMatch, ...body })
            : create.mutateAsync(body);
        }}
      >
        {() => (
          <>
            <TextFormField name="name" label="Name" data-autofocus />
            <TimeZoneFormField />
          </>
        )}
      </FormDialog>
    </>
  );
}
