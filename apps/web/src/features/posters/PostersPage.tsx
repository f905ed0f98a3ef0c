import { useState } from 'react';
import { Button, Stack, Text } from '@mantine/core';
import { IconPhotoPlus, IconPlus } from '@tabler/icons-react';
import { useSearchParams } from 'react-router';
import { POSTER_COLUMNS as TITLES, type Poster } from '@master-admin/contract';
import { bulkActions } from '../../components/BulkActions';
import { DataTable, type Column } from '../../components/DataTable';
import { FilterSelect } from '../../components/FilterSelect';
import { MasterAppSelect } from '../../components/MasterAppSelect';
import { PageHeader } from '../../components/PageHeader';
import { RowActions } from '../../components/RowActions';
import { SkeletonBlock } from '../../components/SkeletonBlock';
import { ListToolbar } from '../../components/ListToolbar';
import { STATUS_OPTIONS, statusColumn } from '../../components/StatusBadge';
import { POSTER_RATIO, Thumbnail, ThumbnailSkeleton } from '../../components/Thumbnail';
import { formatDate, formatDateTime, formatNumber } from '../../lib/format';
import { useGrants } from '../../lib/permissions';
import { CategorySelect } from '../categories/CategorySelect';
import { SpecialDaySelect, specialDayLabel } from '../special-days/SpecialDaySelect';
import {
  usePosterList,
  useChangePosterStatus,
  useChangePostersStatus,
  useDeletePosters,
  useChangePosterSchedule,
} from './api';
import { LIVE_OPTIONS, RowScheduleDialog, scheduleBelowStatus } from '../../components/Schedule';
import {
  CreatePosterDialog,
  PosterDialogs,
  SIDE_LABELS,
  posterName,
  usePosterActions,
  type PosterDialog,
} from './PosterDialogs';
import { BatchPosterDialog, useBatchUpload } from './BatchUpload';
import { BatchProgress } from './BatchProgress';

/** The list's poster images: tall enough to judge a design, in the poster's own shape. */
const THUMB_HEIGHT = 80;
/** Ten columns: below this width the table scrolls rather than cut its status badges short. */
const TABLE_MIN_WIDTH = 1180;

export default function PostersPage() {
  const list = usePosterList();
  const changeStatus = useChangePosterStatus();
  const changeManyStatus = useChangePostersStatus();
  const removeMany = useDeletePosters();
  const changeSchedule = useChangePosterSchedule();
  const grants = useGrants('poster');
  const [creating, setCreating] = useState(false);
  const [dialog, setDialog] = useState<PosterDialog>(null);
  const actions = usePosterActions(setDialog);
  const { filters, setFilter } = list.params;
  // "Many posters" opens from the URL too (`batch=1`, and `date`): the plan's shortcut from a gap
  // prefills the day's special day and the app through the list's own filters.
  const [search, setSearch] = useSearchParams();
  const batching = search.get('batch') === '1';
  const showBatch = (open: boolean) =>
    setSearch((prev) => {
      const next = new URLSearchParams(prev);
      if (open) next.set('batch', '1');
      else {
        next.delete('batch');
        next.delete('date');
      }
      return next;
    });
  const batch = useBatchUpload();

  // A category or special day filter from the URL is named by the rows it filters.
  const filteredCategory = list.rows.find((p) => String(p.categoryId) === filters.categoryId);
  const filteredDay = list.rows.find((p) => String(p.specialDayId) === filters.specialDayId);

  const columns: Column<Poster>[] = [
    {
      key: 'poster',
      header: 'Poster',
      card: 'title',
      render: (p) => (
        <Stack gap={2} align="flex-start">
          <Thumbnail
            src={p.poster}
            alt={`Poster #${p.id}`}
            size={THUMB_HEIGHT}
            ratio={POSTER_RATIO}
          />
          <Text size="xs" c="dimmed">
            #{p.id}
          </Text>
        </Stack>
      ),
      skeleton: (
        <Stack gap={2} align="flex-start">
          <ThumbnailSkeleton size={THUMB_HEIGHT} ratio={POSTER_RATIO} />
          {/* The number's line, at its size. */}
          <Text size="xs">
            <SkeletonBlock w={32} />
          </Text>
        </Stack>
      ),
    },
    { key: 'category', header: TITLES['category.name'], render: (p) => p.category.name },
    {
      key: 'specialDay',
      header: TITLES['specialDay.name'],
      render: (p) =>
        p.specialDay ? (
          <Text size="sm">{specialDayLabel(p.specialDay)}</Text>
        ) : (
          <Text size="sm" c="dimmed">
            —
          </Text>
        ),
    },
    { key: 'app', header: TITLES['masterApp.name'], render: (p) => p.masterApp.name },
    {
      key: 'defNums',
      header: 'Numbers & side',
      render: (p) => (
        <Stack gap={0}>
          <Text
            size="sm"
            style={{ whiteSpace: 'nowrap' }}
            title={`Top ${p.topDefNum}, self ${p.selfDefNum}, bottom ${p.bottomDefNum}`}
          >
            {p.topDefNum} / {p.selfDefNum} / {p.bottomDefNum}
          </Text>
          <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
            Self photo {SIDE_LABELS[p.position].toLowerCase()}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'date',
      header: TITLES.date,
      sort: 'date',
      render: (p) => (
        <Text size="sm" style={{ whiteSpace: 'nowrap' }} c={p.date ? undefined : 'dimmed'}>
          {formatDate(p.date)}
        </Text>
      ),
    },
    {
      key: 'downloads',
      header: TITLES.downloadCount,
      sort: 'downloadCount',
      align: 'right',
      render: (p) => formatNumber(p.downloadCount),
    },
    statusColumn<Poster>({
      subject: posterName,
      sortable: true,
      below: scheduleBelowStatus,
      onChange: grants.update
        ? (p, status) => changeStatus.mutate({ id: p.id, status, ifMatch: p.version })
        : undefined,
    }),
    {
      key: 'createdAt',
      header: TITLES.createdAt,
      sort: 'createdAt',
      render: (p) => (
        <Text size="sm" style={{ whiteSpace: 'nowrap' }} title={formatDateTime(p.createdAt)}>
          {formatDate(p.createdAt)}
        </Text>
      ),
    },
  ];

  return (
    <>
      <PageHeader
        title="Posters"
        description="The posters each app offers, with the user’s images placed on them."
        actions={
          grants.create ? (
            <>
              <Button
                variant="default"
                leftSection={<IconPhotoPlus size={18} />}
                onClick={() => showBatch(true)}
              >
                Many posters
              </Button>
              <Button leftSection={<IconPlus size={18} />} onClick={() => setCreating(true)}>
                New poster
              </Button>
            </>
          ) : undefined
        }
      />
      <BatchProgress rows={batch.rows} onRetry={batch.retry} onClose={batch.clear} />
      <ListToolbar
        search={{
          label: 'Search posters',
          placeholder: 'Search by category or special day',
          params: list.params,
        }}
      >
        <FilterSelect
          label="Status"
          data={STATUS_OPTIONS}
          value={filters.status}
          onChange={(v) => setFilter('status', v)}
        />
        <FilterSelect
          label="Schedule"
          data={LIVE_OPTIONS}
          value={filters.live}
          onChange={(v) => setFilter('live', v)}
        />
        <CategorySelect
          w={200}
          value={filters.categoryId}
          onChange={(v) => setFilter('categoryId', v)}
          known={
            filteredCategory && {
              value: filters.categoryId,
              label: filteredCategory.category.name,
            }
          }
        />
        <SpecialDaySelect
          w={220}
          value={filters.specialDayId}
          onChange={(v) => setFilter('specialDayId', v)}
          known={
            filteredDay?.specialDay
              ? { value: filters.specialDayId, label: specialDayLabel(filteredDay.specialDay) }
              : undefined
          }
        />
        <MasterAppSelect
          w={200}
          value={filters.masterAppId}
          onChange={(v) => setFilter('masterAppId', v)}
        />
      </ListToolbar>
      <DataTable
        label="Posters"
        columns={columns}
        rows={list.rows}
        total={list.total}
        rowKey={(p) => p.id}
        params={list.params}
        query={list.query}
        rowName={(p) => `Poster #${p.id}`}
        minWidth={TABLE_MIN_WIDTH}
        empty={{
          title: 'No posters yet',
          description:
            'A poster is an image of a category (and perhaps a special day) on which the app places the user’s own photo and images.',
          action: grants.create
            ? { label: 'Add the first poster', onClick: () => setCreating(true) }
            : undefined,
        }}
        bulkActions={bulkActions({
          subject: 'poster',
          grants,
          status: { mutation: changeManyStatus },
          remove: {
            mutation: removeMany,
            consequence: 'moved to the trash with their images (restorable for 30 days)',
          },
        })}
        actions={(p) => (
          <RowActions
            history={{ area: 'posters', id: p.id }}
            label={`Poster #${p.id}`}
            actions={actions(p)}
          />
        )}
      />

      <CreatePosterDialog
        opened={creating}
        onClose={() => setCreating(false)}
        initial={{
          masterAppId: filters.masterAppId,
          categoryId: filters.categoryId,
          specialDayId: filters.specialDayId,
        }}
      />
      <BatchPosterDialog
        opened={batching && grants.create}
        onClose={() => showBatch(false)}
        initial={{
          masterAppId: filters.masterAppId,
          categoryId: filters.categoryId,
          specialDayId: filters.specialDayId,
          date: /^\d{4}-\d{2}-\d{2}$/.test(search.get('date') ?? '')
            ? (search.get('date') ?? '')
            : '',
        }}
        onStart={batch.start}
      />
      <PosterDialogs dialog={dialog} onClose={() => setDialog(null)} />
      <RowScheduleDialog
        opened={dialog?.kind === 'schedule'}
        onClose={() => setDialog(null)}
        row={dialog?.kind === 'schedule' ? dialog.poster : undefined}
        subject={dialog ? posterName(dialog.poster) : ''}
        area="poster"
        change={(v) => changeSchedule.mutateAsync(v)}
      />
    </>
  );
}
