import { Badge, Text } from '@mantine/core';
import type { LoginHistoryRow, WalletRow } from '@master-admin/contract';
import { DataTable, type Column } from '../../components/DataTable';
import { ListToolbar } from '../../components/ListToolbar';
import { formatDateTime, formatNumber } from '../../lib/format';
import { useLoginHistory, useWalletList } from './api';

const when = (iso: string) => (
  <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
    {formatDateTime(iso)}
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
  {
    key: 'ip',
    header: 'IP address',
    render: (h) => (
      <Text size="sm" ff="monospace" c={h.ip ? undefined : 'dimmed'}>
        {h.ip ?? '—'}
      </Text>
    ),
  },
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
