import { useRef, useState } from 'react';
import { ActionIcon, Box, Button, Group, Stack, Text } from '@mantine/core';
import { IconPlayerPlayFilled, IconPlus } from '@tabler/icons-react';
import { VIDEO_COLUMNS as TITLES, type Video } from '@master-admin/contract';
import { bulkActions } from '../../components/BulkActions';
import { DataTable, type Column } from '../../components/DataTable';
import { FilterSelect } from '../../components/FilterSelect';
import { MasterAppSelect } from '../../components/MasterAppSelect';
import { PageHeader } from '../../components/PageHeader';
import { RowActions } from '../../components/RowActions';
import { ListToolbar } from '../../components/ListToolbar';
import { STATUS_OPTIONS, statusColumn } from '../../components/StatusBadge';
import { formatDate, formatDateTime, formatNumber } from '../../lib/format';
import { useGrants } from '../../lib/permissions';
import { SIDE_LABELS } from '../posters/PosterDialogs';
import {
  useChangeVideoSchedule,
  useChangeVideoStatus,
  useChangeVideosStatus,
  useDeleteVideos,
  useVideoList,
} from './api';
import { LIVE_OPTIONS, RowScheduleDialog, scheduleBelowStatus } from '../../components/Schedule';
import {
  CreateVideoDialog,
  VideoDialogs,
  useVideoActions,
  videoName,
  type VideoDialog,
} from './VideoDialogs';

/** The list's players: small, in the 16:9 shape most videos have. */
const PLAYER_WIDTH = 120;
const PLAYER_HEIGHT = 68;
/** Eight columns: below this width the table scrolls rather than cut its status badges short. */
const TABLE_MIN_WIDTH = 1100;

/**
 * A row's small player: only the file's metadata (and first frame) loads until it is clicked,
 * then it plays inline, muted; a click again pauses it. The button beside it opens the full
 * player page.
 */
function RowPlayer(props: { video: Video; onOpen: () => void }) {
  const ref = useRef<HTMLVideoElement>(null);
  const [playing, setPlaying] = useState(false);
  const { video } = props;
  const toggle = () => {
    const el = ref.current;
    if (!el) return;
    if (el.paused) void el.play()?.catch(() => undefined);
    else el.pause();
  };
  return (
    <Group gap={6} wrap="nowrap" align="flex-start">
      <Box
        w={PLAYER_WIDTH}
        h={PLAYER_HEIGHT}
        bg="dark.7"
        style={{ borderRadius: 'var(--mantine-radius-sm)', overflow: 'hidden', flex: 'none' }}
      >
        <video
          ref={ref}
          src={video.videoUrl}
          preload="metadata"
          muted
          playsInline
          loop
          aria-label={`Video #${video.id}`}
          title={playing ? 'Click to pause' : 'Click to play'}
          width={PLAYER_WIDTH}
          height={PLAYER_HEIGHT}
          style={{ display: 'block', objectFit: 'cover', cursor: 'pointer' }}
          onClick={toggle}
          onPlay={() => setPlaying(true)}
          onPause={() => setPlaying(false)}
        />
      </Box>
      <ActionIcon
        variant="light"
        size="sm"
        aria-label={`Play video #${video.id}`}
        title="Open the player"
        onClick={props.onOpen}
      >
        <IconPlayerPlayFilled size={14} />
      </ActionIcon>
    </Group>
  );
}

export default function VideosPage() {
  const list = useVideoList();
  const changeStatus = useChangeVideoStatus();
  const changeManyStatus = useChangeVideosStatus();
  const removeMany = useDeleteVideos();
  const changeSchedule = useChangeVideoSchedule();
  const grants = useGrants('video');
  const [creating, setCreating] = useState(false);
  const [dialog, setDialog] = useState<VideoDialog>(null);
  const actions = useVideoActions(setDialog);
  const { filters, setFilter } = list.params;

  const columns: Column<Video>[] = [
    {
      key: 'video',
      header: 'Video',
      card: 'title',
      render: (v) => (
        <Stack gap={2} align="flex-start">
          <RowPlayer video={v} onOpen={() => setDialog({ kind: 'player', video: v })} />
          <Text size="xs" c="dimmed">
            #{v.id}
          </Text>
        </Stack>
      ),
    },
    { key: 'app', header: TITLES['masterApp.name'], render: (v) => v.masterApp.name },
    {
      key: 'defNums',
      header: 'Numbers & side',
      render: (v) => (
        <Stack gap={0}>
          <Text
            size="sm"
            style={{ whiteSpace: 'nowrap' }}
            title={`Top ${v.topDefNum}, self ${v.selfDefNum}, bottom ${v.bottomDefNum}`}
          >
            {v.topDefNum} / {v.selfDefNum} / {v.bottomDefNum}
          </Text>
          <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
            Self photo {SIDE_LABELS[v.position].toLowerCase()}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'date',
      header: TITLES.date,
      sort: 'date',
      render: (v) => (
        <Text size="sm" style={{ whiteSpace: 'nowrap' }} c={v.date ? undefined : 'dimmed'}>
          {formatDate(v.date)}
        </Text>
      ),
    },
    {
      key: 'downloads',
      header: TITLES.downloadCount,
      sort: 'downloadCount',
      align: 'right',
      render: (v) => formatNumber(v.downloadCount),
    },
    statusColumn<Video>({
      subject: videoName,
      sortable: true,
      below: scheduleBelowStatus,
      onChange: grants.update
        ? (v, status) => changeStatus.mutate({ id: v.id, status, ifMatch: v.version })
        : undefined,
    }),
    {
      key: 'createdAt',
      header: TITLES.createdAt,
      sort: 'createdAt',
      render: (v) => (
        <Text size="sm" style={{ whiteSpace: 'nowrap' }} title={formatDateTime(v.createdAt)}>
          {formatDate(v.createdAt)}
        </Text>
      ),
    },
  ];

  return (
    <>
      <PageHeader
        title="Videos"
        description="The videos each app offers, with the user’s images placed on them."
        actions={
          grants.create ? (
            <Button leftSection={<IconPlus size={18} />} onClick={() => setCreating(true)}>
              New video
            </Button>
          ) : undefined
        }
      />
      <ListToolbar
        search={{
          label: 'Search videos',
          placeholder: 'Search by master app',
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
        <MasterAppSelect
          w={200}
          value={filters.masterAppId}
          onChange={(v) => setFilter('masterAppId', v)}
        />
      </ListToolbar>
      <DataTable
        label="Videos"
        columns={columns}
        rows={list.rows}
        total={list.total}
        rowKey={(v) => v.id}
        params={list.params}
        query={list.query}
        rowName={(v) => `Video #${v.id}`}
        minWidth={TABLE_MIN_WIDTH}
        empty={{
          title: 'No videos yet',
          description:
            'A video is a clip for one app (MP4, WebM or QuickTime) on which the app places the user’s own photo and images.',
          action: grants.create
            ? { label: 'Add the first video', onClick: () => setCreating(true) }
            : undefined,
        }}
        bulkActions={bulkActions({
          subject: 'video',
          grants,
          status: { mutation: changeManyStatus },
          remove: {
            mutation: removeMany,
            consequence: 'moved to the trash with their files (restorable for 30 days)',
          },
        })}
        actions={(v) => (
          <RowActions
            history={{ area: 'videos', id: v.id }}
            label={`Video #${v.id}`}
            actions={actions(v)}
          />
        )}
      />

      <CreateVideoDialog
        opened={creating}
        onClose={() => setCreating(false)}
        initial={{ masterAppId: filters.masterAppId }}
      />
      <VideoDialogs dialog={dialog} onClose={() => setDialog(null)} />
      <RowScheduleDialog
        opened={dialog?.kind === 'schedule'}
        onClose={() => setDialog(null)}
        row={dialog?.kind === 'schedule' ? dialog.video : undefined}
        subject={dialog ? videoName(dialog.video) : ''}
        area="video"
        change={(v) => changeSchedule.mutateAsync(v)}
      />
    </>
  );
}
