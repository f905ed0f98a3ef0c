import { useState } from 'react';
import { Badge, Button, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { BUILT_IN_MENUS, menuCreateBody, type Menu } from '@master-admin/contract';
import { DataTable, type Column } from '../../components/DataTable';
import { FormDialog } from '../../components/FormDialog';
import { TextFormField } from '../../components/FormFields';
import { PageHeader } from '../../components/PageHeader';
import { RowActions } from '../../components/RowActions';
import { ListToolbar } from '../../components/ListToolbar';
import { confirmDelete } from '../../components/confirm';
import { useListParams } from '../../lib/list';
import { useCreateMenu, useDeleteMenu, useMenus, useUpdateMenu } from './api';

const BUILT_IN = new Set<string>(BUILT_IN_MENUS.map((m) => m.name));
export const isBuiltIn = (menu: Menu) => BUILT_IN.has(menu.name);

type Dialog = { kind: 'create' } | { kind: 'edit'; menu: Menu } | null;

/**
 * The menus: the units permissions are granted on (SUPER_ADMIN only). The built-in ones are what
 * the server checks; a menu added here gets a row in every staff member's permissions.
 */
export default function MenusPage() {
  const params = useListParams([]);
  const query = useMenus(params.keyword);
  const create = useCreateMenu();
  const update = useUpdateMenu();
  const remove = useDeleteMenu();
  const [dialog, setDialog] = useState<Dialog>(null);
  const editing = dialog?.kind === 'edit' ? dialog.menu : undefined;
  const all = query.isError ? [] : (query.data ?? []);
  const rows = all.slice(params.offset, params.offset + params.limit);

  const columns: Column<Menu>[] = [
    {
      key: 'title',
      header: 'Title',
      card: 'title',
      render: (m) => (
        <Text fw={500} size="sm">
          {m.title}
        </Text>
      ),
    },
    { key: 'name', header: 'Name', render: (m) => <Text size="sm">{m.name}</Text> },
    {
      key: 'kind',
      header: 'Kind',
      width: 140,
      render: (m) =>
        isBuiltIn(m) ? (
          <Badge variant="light" color="gray">
            Built-in
          </Badge>
        ) : (
          <Badge variant="light">Added</Badge>
        ),
    },
  ];
  const openCreate = () => setDialog({ kind: 'create' });

  return (
    <>
      <PageHeader
        title="Menus"
        description="The units permissions are granted on. Built-in menus cannot be deleted, and keep their names; their titles can change."
        actions={
          <Button leftSection={<IconPlus size={18} />} onClick={openCreate}>
            New menu
          </Button>
        }
      />
      <ListToolbar
        search={{ label: 'Search menus', placeholder: 'Name or title', params: params }}
      />
      <DataTable
        label="Menus"
        columns={columns}
        rows={rows}
        total={all.length}
        rowKey={(m) => m.id}
        params={params}
        query={query}
        rowName={(m) => m.title}
        empty={{
          title: 'No menus match',
          description: 'Menus are the units permissions are granted on.',
          action: { label: 'Add a menu', onClick: openCreate },
        }}
        actions={(m) => (
          <RowActions
            history={{ area: 'menus', id: m.id }}
            label={m.title}
            actions={[
              { label: 'Edit', onClick: () => setDialog({ kind: 'edit', menu: m }) },
              {
                label: 'Delete',
                danger: true,
                allowed: !isBuiltIn(m),
                onClick: () =>
                  confirmDelete({
                    title: 'Delete this menu?',
                    message: `The menu “${m.title}” and every staff member’s permissions on it will be deleted.`,
                    onConfirm: () => remove.mutate({ id: m.id, ifMatch: m.version }),
                  }),
              },
            ]}
          />
        )}
      />

      <FormDialog
        opened={dialog !== null}
        onClose={() => setDialog(null)}
        presence={editing ? { area: 'menus', id: editing.id, label: editing.title } : undefined}
        title={editing ? `Edit ${editing.title}` : 'New menu'}
        schema={menuCreateBody}
        defaultValues={{ name: editing?.name ?? '', title: editing?.title ?? '' }}
        submitLabel={editing ? 'Save' : 'Create'}
        version={editing?.version}
        onSubmit={(values, { ifMatch }) =>
          editing
            ? update.mutateAsync({
                id: editing.id,
                ifMatch,
                title: values.title,
                ...(isBuiltIn(editing) ? {} : { name: values.name }),
              })
            : create.mutateAsync(values)
        }
      >
        {() => (
          <>
            <TextFormField
              name="title"
              label="Title"
              description="What people read"
              required
              data-autofocus
            />
            <TextFormField
              name="name"
              label="Name"
              description={
                editing && isBuiltIn(editing)
                  ? 'A built-in menu keeps its name: the server’s permission checks use it'
                  : 'A key: letters, digits and _, starting with a letter (e.g. reports)'
              }
              required
              readOnly={editing ? isBuiltIn(editing) : false}
            />
          </>
        )}
      </FormDialog>
    </>
  );
}
