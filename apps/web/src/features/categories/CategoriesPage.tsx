import { useState } from 'react';
import { Button, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { categoryBody, type Category } from '@master-admin/contract';
import { DataTable, type Column } from '../../components/DataTable';
import { FilterSelect } from '../../components/FilterSelect';
import { FormDialog } from '../../components/FormDialog';
import { TextFormField } from '../../components/FormFields';
import { PageHeader } from '../../components/PageHeader';
import { RowActions } from '../../components/RowActions';
import { ListToolbar } from '../../components/ListToolbar';
import { STATUS_OPTIONS, statusColumn } from '../../components/StatusBadge';
import { StatusDialog } from '../../components/StatusDialog';
import { confirmDelete } from '../../components/confirm';
import { formatDateTime, formatNumber } from '../../lib/format';
import { useGrants } from '../../lib/permissions';
import {
  useCategoryList,
  useChangeCategoryStatus,
  useCreateCategory,
  useDeleteCategory,
  useRenameCategory,
} from './api';
import { defined } from '../../lib/defined';

type Dialog = { kind: 'create' } | { kind: 'rename' | 'status'; category: Category } | null;

export default function CategoriesPage() {
  const list = useCategoryList();
  const create = useCreateCategory();
  const rename = useRenameCategory();
  const changeStatus = useChangeCategoryStatus();
  const remove = useDeleteCategory();
  const grants = useGrants('category');
  const [dialog, setDialog] = useState<Dialog>(null);
  const close = () => setDialog(null);
  const { filters, setFilter } = list.params;
  const selected = dialog && dialog.kind !== 'create' ? dialog.category : undefined;
  const renaming = dialog?.kind === 'rename' ? dialog.category : undefined;

  const columns: Column<Category>[] = [
    {
      key: 'name',
      header: 'Name',
      sort: 'name',
      card: 'title',
      render: (c) => (
        <Text fw={500} size="sm">
          {c.name}
        </Text>
      ),
    },
    {
      key: 'downloadCount',
      header: 'Downloads',
      sort: 'downloadCount',
      align: 'right',
      width: 120,
      render: (c) => formatNumber(c.downloadCount),
    },
    statusColumn({
      subject: (c) => c.name,
      sortable: true,
      onChange: grants.update
        ? (c, status) => changeStatus.mutate({ id: c.id, status, ifMatch: c.version })
        : undefined,
    }),
    {
      key: 'createdAt',
      header: 'Created',
      width: 170,
      sort: 'createdAt',
      render: (c) => formatDateTime(c.createdAt),
    },
  ];
  const openCreate = () => setDialog({ kind: 'create' });

  return (
    <>
      <PageHeader
        title="Categories"
        description="The groups posters belong to."
        actions={
          grants.create ? (
            <Button leftSection={<IconPlus size={18} />} onClick={openCreate}>
              New category
            </Button>
          ) : undefined
        }
      />
      <ListToolbar
        search={{ label: 'Search categories', placeholder: 'Search by name', params: list.params }}
      >
        <FilterSelect
          label="Status"
          data={STATUS_OPTIONS}
          value={filters.status}
          onChange={(v) => setFilter('status', v)}
        />
      </ListToolbar>
      <DataTable
        label="Categories"
        columns={columns}
        rows={list.rows}
        total={list.total}
        rowKey={(c) => c.id}
        params={list.params}
        query={list.query}
        rowName={(c) => c.name}
        empty={{
          title: 'No categories yet',
          description:
            'Categories group the posters (Diwali, Good morning, Business…); every poster belongs to one.',
          action: grants.create
            ? { label: 'Add the first category', onClick: openCreate }
            : undefined,
        }}
        actions={(c) => (
          <RowActions
            history={{ area: 'categories', id: c.id }}
            label={c.name}
            actions={[
              {
                label: 'Rename',
                allowed: grants.update,
                onClick: () => setDialog({ kind: 'rename', category: c }),
              },
              {
                label: 'Change status',
                allowed: grants.update,
                onClick: () => setDialog({ kind: 'status', category: c }),
              },
              {
                label: 'Delete',
                danger: true,
                allowed: grants.delete,
                onClick: () =>
                  confirmDelete({
                    title: 'Delete this category?',
                    message: `The category “${c.name}” will be deleted. A category that posters still use cannot be deleted.`,
                    onConfirm: () => remove.mutate({ id: c.id, ifMatch: c.version }),
                  }),
              },
            ]}
          />
        )}
      />

      <FormDialog
        opened={dialog?.kind === 'create' || dialog?.kind === 'rename'}
        onClose={close}
        presence={
          renaming ? { area: 'category', id: renaming.id, label: renaming.name } : undefined
        }
        title={renaming ? `Rename ${renaming.name}` : 'New category'}
        schema={categoryBody}
        defaultValues={{ name: renaming?.name ?? '' }}
        submitLabel={renaming ? 'Save' : 'Create'}
        version={renaming?.version}
        onSubmit={(values, { ifMatch }) =>
          renaming
            ? rename.mutateAsync({ id: renaming.id, ifMatch, ...values })
            : create.mutateAsync(values)
        }
      >
        {() => <TextFormField name="name" label="Name" required data-autofocus />}
      </FormDialog>

      <StatusDialog
        opened={dialog?.kind === 'status'}
        onClose={close}
        subject={selected?.name ?? ''}
        current={selected?.status}
        version={selected?.version}
        onSubmit={(status, ifMatch) =>
          changeStatus.mutateAsync({ id: defined(selected).id, status, ifMatch })
        }
      />
    </>
  );
}
