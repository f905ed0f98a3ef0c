import { Anchor, Badge, Text, Tooltip } from '@mantine/core';
import type { Activity, ActivityRow, LoginHistoryRow, WalletRow } from '@master-admin/contract';
import { DataTable, type Column } from '../../components/DataTable';
import { ListToolbar } from '../../components/ListToolbar';
import { formatDateTime, formatNumber } from '../../lib/format';
import { useLoginHistory, useUserActivities, useWalletList } from './api';

const when = (iso: string) => (
  <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
    {formatDateTime(iso)}
  </Text>
);

/** A value that may be missing: dimmed "—" then. */
const orDash = (value: string | null, props: { monospace?: boolean } = {}) => (
  <Text size="sm" ff={props.monospace ? 'monospace' : undefined} c={value ? undefined : 'dimmed'}>
    {value ?? '—'}
  </Text>
);

const HISTORY_COLUMNS: Column<LoginHistoryRow>[] = [
  {
    key: 'status',
    header: 'Event',
    card: 'title',
    render: (h) => (
      <Badge variant="light" color={h.status === 'IN' ? 'cyan' : 'gray'}>
        {h.status === 'IN' ? 'Signed in' : 'Signed out'}
      </Badge>
    ),
  },
  // The device a content app named at sign-in; the back-office's own sign-ins name none.
  { key: 'device', header: 'Device', render: (h) => orDash(h.device) },
  { key: 'ip', header: 'IP address', render: (h) => orDash(h.ip, { monospace: true }) },
  {
    key: 'place',
    header: 'Location',
    render: (h) =>
      h.latitude !== null && h.longitude !== null ? (
        <Text size="sm">
          {h.latitude.toFixed(4)}, {h.longitude.toFixed(4)}
        </Text>
      ) : (
        <Text size="sm" c="dimmed">
          —
        </Text>
      ),
  },
  { key: 'createdAt', header: 'When', render: (h) => when(h.createdAt) },
];

/**
 * Sign-ins and sign-outs of one account (`own`: the signed-in account's), with a search by IP,
 * the total and pages; `prefix` keeps its page in the URL apart from other lists on the screen.
 */
export function LoginHistoryList(props: { accountId: number | 'own'; prefix?: string }) {
  const list = useLoginHistory(props.accountId, props.prefix);
  return (
    <>
      <ListToolbar
        search={{
          label: 'Search sign-ins',
          placeholder: 'Search by IP address',
          params: list.params,
        }}
      />
      <DataTable
        label="Login history"
        columns={HISTORY_COLUMNS}
        rows={list.rows}
        total={list.total}
        rowKey={(h) => h.id}
        params={list.params}
        query={list.query}
        rowName={(h) =>
          `${h.status === 'IN' ? 'Sign-in' : 'Sign-out'} ${formatDateTime(h.createdAt)}`
        }
        empty={{
          title: 'No sign-ins yet',
          description: 'Each sign-in and sign-out is listed here with its address and time.',
        }}
      />
    </>
  );
}

// Light badges: teal's text on its own tint is 4.3:1, under WCAG AA's 4.5:1; cyan's is 4.8:1.
const KIND_COLORS = { DEPOSIT: 'cyan', WITHDRAW: 'blue', FINED: 'red' } as const;
const label = (code: string) => code.charAt(0) + code.slice(1).toLowerCase().replace(/_/g, ' ');

const WALLET_COLUMNS: Column<WalletRow>[] = [
  {
    key: 'reward',
    header: 'Reward',
    card: 'title',
    align: 'right',
    render: (w) => (
      <Text size="sm" fw={500} c={w.status === 'DEPOSIT' ? undefined : 'red'}>
        {w.status === 'DEPOSIT' ? '+' : '−'}
        {formatNumber(w.reward)}
      </Text>
    ),
  },
  {
    key: 'status',
    header: 'Kind',
    render: (w) => (
      <Badge variant="light" color={KIND_COLORS[w.status]}>
        {label(w.status)}
      </Badge>
    ),
  },
  { key: 'depositFor', header: 'For', render: (w) => label(w.depositFor) },
  {
    key: 'feed',
    header: 'Feed',
    render: (w) => (
      <Text size="sm" c={w.feed ? undefined : 'dimmed'}>
        {w.feed ?? '—'}
      </Text>
    ),
  },
  { key: 'createdAt', header: 'When', render: (w) => when(w.createdAt) },
];

/** A user's wallet (reward history), searchable by feed, with its total. */
export function WalletList(props: { accountId: number }) {
  const list = useWalletList(props.accountId);
  return (
    <>
      <ListToolbar
        search={{ label: 'Search the wallet', placeholder: 'Search by feed', params: list.params }}
      />
      <DataTable
        label="Wallet"
        columns={WALLET_COLUMNS}
        rows={list.rows}
        total={list.total}
        rowKey={(w) => w.id}
        params={list.params}
        query={list.query}
        rowName={(w) => `Wallet row #${w.id}`}
        empty={{
          title: 'No wallet rows yet',
          description: 'Rewards the user earns, spends or is fined in the content app appear here.',
        }}
      />
    </>
  );
}

/** What a person reads for each activity the content app records. */
export const ACTIVITY_LABELS: Record<Activity, string> = {
  REGISTER: 'Signed up',
  LOGIN: 'Signed in',
  FEEDBACK: 'Feedback',
  LIKE: 'Liked',
  UNLIKE: 'Like taken back',
  COMMENT: 'Commented',
  DELETE_COMMENT: 'Comment deleted',
  SPORT: 'Sport',
  SHARED: 'Shared',
  POST: 'Posted',
  DELETE_POST: 'Post deleted',
  REPOST: 'Reposted',
  FOLLOW: 'Followed',
  UNFOLLOW: 'Unfollowed',
};

// Dot badges (as StatusBadge): the text keeps the page's colour, so every kind reads at AA.
const ACTIVITY_COLORS: Partial<Record<Activity, string>> = {
  REGISTER: 'teal',
  LOGIN: 'blue',
  LIKE: 'pink',
  SHARED: 'violet',
};

/**
 * What a user did in the content app (sign-ups, sign-ins, likes, shares), newest first, paged by
 * cursor like every list. `onPoster` opens a poster the row names (the poster as this user gets
 * it); without it, the poster's number is plain text.
 */
export function ActivityList(props: { accountId: number; onPoster?: (posterId: number) => void }) {
  const list = useUserActivities(props.accountId);
  const { onPoster } = props;
  const columns: Column<ActivityRow>[] = [
    {
      key: 'activity',
      header: 'Activity',
      card: 'title',
      render: (a) => (
        <Badge variant="dot" tt="none" color={ACTIVITY_COLORS[a.activity] ?? 'gray'}>
          {ACTIVITY_LABELS[a.activity]}
        </Badge>
      ),
    },
    {
      key: 'poster',
      header: 'Poster',
      render: ({ posterId }) => {
        if (posterId === null) return orDash(null);
        if (!onPoster) return <Text size="sm">#{posterId}</Text>;
        return (
          <Tooltip label="Preview it as this user gets it">
            <Anchor component="button" type="button" size="sm" onClick={() => onPoster(posterId)}>
              #{posterId}
            </Anchor>
          </Tooltip>
        );
      },
    },
    // Where a poster was shared (whatsapp, instagram …), as the app said.
    { key: 'detail', header: 'Detail', render: (a) => orDash(a.detail) },
    { key: 'device', header: 'Device', render: (a) => orDash(a.device) },
    { key: 'ip', header: 'IP address', render: (a) => orDash(a.ip, { monospace: true }) },
    { key: 'createdAt', header: 'When', render: (a) => when(a.createdAt) },
  ];
  return (
    <DataTable
      label="Activity"
      columns={columns}
      rows={list.rows}
      total={list.total}
      rowKey={(a) => a.id}
      params={list.params}
      query={list.query}
      rowName={(a) => `${ACTIVITY_LABELS[a.activity]} ${formatDateTime(a.createdAt)}`}
      empty={{
        title: 'No activity yet',
        description:
          'What the user does in the content app (signing up and in, liking and sharing posters) is listed here.',
      }}
    />
  );
}
