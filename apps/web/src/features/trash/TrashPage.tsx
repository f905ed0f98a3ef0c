/**
 * The trash (API.md "Planning festivals"): rows deleted in the areas the account may delete in,
 * newest first, with area filter and search; restore one or many, and for the SUPER_ADMIN delete
 * forever. Rows stay TRASH_DAYS (30 by default), then the server's sweep deletes them for good.
 */
import { useEffect } from 'react';
import { Badge, Button, Group, Text } from '@mantine/core';
import { IconRestore, IconTrashX } from '@tabler/icons-react';
import {
  TRASH_AREAS,
  TRASH_AREA_MENUS,
  type TrashArea,
  type TrashItem,
  type TrashRow,
} from '@master-admin/contract';
import { DataTable, type Column } from '../../components/DataTable';
import { FilterSelect } from '../../components/FilterSelect';
import { ListToolbar } from '../../components/ListToolbar';
import { PageHeader } from '../../components/PageHeader';
import { RowActions } from '../../components/RowActions';
import { Thumbnail, ThumbnailSkeleton } from '../../components/Thumbnail';
import { confirmAction } from '../../components/confirm';
import { events } from '../../lib/events';
import { formatDateTime, formatNumber } from '../../lib/format';
import { useDeleteMenus, useIsSuperAdmin } from '../../lib/permissions';
import type { Selection } from '../../lib/bulk';
import { usePurge, useRestore, useTrashList } from './api';

export const TRASH_AREA_LABELS: Record<TrashArea, readonly [string, string]> = {
  posters: ['Poster', 'Posters'],
  videos: ['Video', 'Videos'],
  banners: ['Banner', 'Banners'],
  categories: ['Category', 'Categories'],
  specialDays: ['Special day', 'Special days'],
  blogs: ['Blog', 'Blogs'],
  pages: ['Page', 'Pages'],
  faqs: ['FAQ', 'FAQs'],
  notifications: ['Notification', 'Notifications'],
};

const itemOf = (row: TrashRow): TrashItem => ({ area: row.area, id: row.id });
const nameOf = (row: TrashRow) => `${TRASH_AREA_LABELS[row.area][0]} #${row.id}`;
const counted = (n: number) => `${formatNumber(n)} row${n === 1 ? '' : 's'}`;

export default function TrashPage() {
  const list = useTrashList();
  const restore = useRestore();
  const purge = usePurge();
  const superAdmin = useIsSuperAdmin();
  const menus = useDeleteMenus();
  const areas = TRASH_AREAS.filter((a) => menus === 'all' || menus.has(TRASH_AREA_MENUS[a]));
  const { refetch } = list.query;

  // Deletes, restores and purges in any area reach the trash: it reads again (others' too).
  useEffect(
    () =>
      events.onChange((event) => {
        if (Object.values(TRASH_AREA_MENUS).includes(event.area as never)) void refetch();
      }),
    [refetch],
  );

  const askPurge = (items: TrashItem[], what: string, done?: () => void) =>
    confirmAction({
      title: `Delete ${what} forever?`,
      message: `${what} and their files will be deleted for good. This cannot be undone.`,
      confirmLabel: 'Delete forever',
      danger: true,
      onConfirm: () => purge.mutate(items, { onSuccess: done }),
    });

  const columns: Column<TrashRow>[] = [
    {
      key: 'thumbnail',
      header: 'Picture',
      width: 72,
      card: 'hidden',
      render: (r) => <Thumbnail src={r.thumbnail} alt={r.title} />,
      skeleton: <ThumbnailSkeleton />,
    },
    {
      key: 'title',
      header: 'Title',
      card: 'title',
      render: (r) => (
        <Text fw={500} size="sm" lineClamp={2} title={r.title}>
          {r.title}
        </Text>
      ),
    },
    {
      key: 'area',
      header: 'Area',
      width: 150,
      render: (r) => (
        <Badge variant="light" color="gray">
          {TRASH_AREA_LABELS[r.area][0]} #{r.id}
        </Badge>
      ),
    },
    {
      key: 'deletedAt',
      header: 'Deleted',
      width: 180,
      render: (r) => <Text size="sm">{formatDateTime(r.deletedAt)}</Text>,
    },
    {
      key: 'deletedBy',
      header: 'Deleted by',
      width: 180,
      render: (r) => <Text size="sm">{r.deletedBy?.name ?? '—'}</Text>,
    },
  ];

  const bulk = (selection: Selection<TrashRow>, clear: () => void) => {
    const rows = selection.kind === 'rows' ? selection.rows : [];
    const items = rows.map(itemOf);
    const what = counted(items.length);
    return (
      <Group gap="xs">
        <Button
          size="compact-sm"
          leftSection={<IconRestore size={14} />}
          loading={restore.isPending}
          onClick={() => restore.mutate(items, { onSuccess: clear })}
        >
          Restore
        </Button>
        {superAdmin && (
          <Button
            size="compact-sm"
            color="red"
            leftSection={<IconTrashX size={14} />}
            onClick={() => askPurge(items, what, clear)}
          >
            Delete forever
          </Button>
        )}
      </Group>
    );
  };

  // "Select all matching" is not offered (no `matching`): a selection is rows on screen.
  const params = { ...list.params, matching: undefined, download: undefined };

  return (
    <>
      <PageHeader
        title="Trash"
        description="Deleted rows, kept 30 days with their files: restore them, or let them go."
      />
      <ListToolbar
        search={{ label: 'Search the trash', placeholder: 'Search titles', params: list.params }}
      >
        <FilterSelect
          label="Area"
          data={areas.map((a) => ({ value: a, label: TRASH_AREA_LABELS[a][1] }))}
          value={list.params.filters.area}
          onChange={(v) => list.params.setFilter('area', v)}
        />
      </ListToolbar>
      <DataTable
        label="Trash"
        columns={columns}
        rows={list.rows}
        total={list.total}
        rowKey={(r) => `${r.area}/${r.id}`}
        params={params}
        query={list.query}
        rowName={nameOf}
        empty={{
          title: 'The trash is empty',
          description:
            'What is deleted in the areas you may delete in comes here for 30 days, and can be restored.',
        }}
        bulkActions={bulk}
        actions={(r) => (
          <RowActions
            label={nameOf(r)}
            actions={[
              { label: 'Restore', onClick: () => restore.mutate([itemOf(r)]) },
              {
                label: 'Delete forever',
                danger: true,
                allowed: superAdmin,
                onClick: () => askPurge([itemOf(r)], `“${r.title}”`),
              },
            ]}
          />
        )}
      />
    </>
  );
}
