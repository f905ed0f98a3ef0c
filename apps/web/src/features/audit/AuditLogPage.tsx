import { lazy, Suspense } from 'react';
import { Anchor, Text, TextInput } from '@mantine/core';
import { AUDIT_AREAS, type AuditEntry } from '@master-admin/contract';
import { DataTable, type Column } from '../../components/DataTable';
import { FilterSelect } from '../../components/FilterSelect';
import { ListToolbar } from '../../components/ListToolbar';
import { PageHeader } from '../../components/PageHeader';
import { formatDateTime } from '../../lib/format';
import { useAuditList } from './api';
import { ActionBadge, ExpandableChanges } from './AuditChanges';
import { AREA_LABELS } from './labels';

// The date picker (and its styles) loads with the filter, not with the app.
const RangeField = lazy(() =>
  import('../dashboard/PeriodFields').then((m) => ({ default: m.RangeField })),
);

const AREA_OPTIONS = AUDIT_AREAS.map((value) => ({ value, label: AREA_LABELS[value] }));

/** An id typed in a filter: digits only, else nothing (the server would refuse it). */
const idFilter = (value: string) => (/^[1-9]\d{0,9}$/.test(value.trim()) ? value.trim() : '');

/** Every change made through the API, newest first: SUPER_ADMIN only (the router says so). */
export default function AuditLogPage() {
  const list = useAuditList();
  const { filters, setFilter, setFilters } = list.params;

  const columns: Column<AuditEntry>[] = [
    {
      key: 'createdAt',
      header: 'When',
      width: 170,
      card: 'title',
      render: (e) => <Text size="sm">{formatDateTime(e.createdAt)}</Text>,
    },
    {
      key: 'account',
      header: 'Who',
      width: 220,
      render: (e) => (
        <Anchor
          component="button"
          size="sm"
          title="Show only this account’s changes"
          onClick={() => setFilter('accountId', String(e.accountId))}
          style={{ wordBreak: 'break-all', textAlign: 'left' }}
        >
          {e.accountName ?? `Account #${e.accountId}`}
        </Anchor>
      ),
    },
    {
      key: 'ip',
      header: 'Address and device',
      width: 170,
      render: (e) => (
        <>
          <Text size="sm">{e.ip ?? '—'}</Text>
          {e.device && (
            <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {e.device}
            </Text>
          )}
        </>
      ),
    },
    {
      key: 'row',
      header: 'Area and row',
      width: 180,
      render: (e) => (
        <Anchor
          component="button"
          size="sm"
          title="Show only this row’s changes"
          onClick={() =>
            setFilters({ area: e.area, rowId: e.rowId === null ? undefined : String(e.rowId) })
          }
        >
          {AREA_LABELS[e.area]}
          {e.rowId === null ? '' : ` #${e.rowId}`}
        </Anchor>
      ),
    },
    {
      key: 'action',
      header: 'Action',
      width: 170,
      render: (e) => <ActionBadge action={e.action} />,
    },
    { key: 'changes', header: 'Changes', render: (e) => <ExpandableChanges entry={e} /> },
  ];

  return (
    <>
      <PageHeader
        title="Audit log"
        description="Every change made through the back-office: who made it, when, from where, and what changed."
      />
      <ListToolbar>
        <FilterSelect
          label="Area"
          data={AREA_OPTIONS}
          value={filters.area}
          onChange={(v) => setFilters({ area: v || undefined, rowId: undefined })}
          w={180}
        />
        <TextInput
          key={`row-${filters.rowId}`}
          label="Row id"
          placeholder="Any"
          inputMode="numeric"
          w={120}
          defaultValue={filters.rowId}
          onBlur={(e) => setFilter('rowId', idFilter(e.currentTarget.value) || undefined)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') setFilter('rowId', idFilter(e.currentTarget.value) || undefined);
          }}
        />
        <TextInput
          key={`account-${filters.accountId}`}
          label="Account id"
          placeholder="Anyone"
          inputMode="numeric"
          w={130}
          defaultValue={filters.accountId}
          onBlur={(e) => setFilter('accountId', idFilter(e.currentTarget.value) || undefined)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              setFilter('accountId', idFilter(e.currentTarget.value) || undefined);
            }
          }}
        />
        <Suspense fallback={<TextInput label="Created between" w={280} disabled />}>
          <RangeField
            from={filters.fromDate}
            to={filters.toDate}
            onChange={(range) => setFilters(range)}
          />
        </Suspense>
      </ListToolbar>
      <DataTable
        label="Audit log"
        columns={columns}
        rows={list.rows}
        total={list.total}
        rowKey={(e) => e.id}
        params={list.params}
        query={list.query}
        minWidth={1020}
        empty={{
          title: 'No changes recorded',
          description:
            'Each change made through the back-office (and each sign-in and sign-out) is recorded here.',
        }}
      />
    </>
  );
}
