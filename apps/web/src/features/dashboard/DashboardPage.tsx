import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import {
  Alert,
  Button,
  Group,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  ThemeIcon,
} from '@mantine/core';
import {
  IconAlertTriangle,
  IconCategory,
  IconDownload,
  IconPhotoStar,
  IconUsers,
  type Icon,
} from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { PATHS, dashboardCounts, type DashboardCounts } from '@master-admin/contract';
import { api, errorText } from '../../lib/api';
import { formatNumber } from '../../lib/format';
import { useListParams } from '../../lib/list';
import { MasterAppSelect } from '../../components/MasterAppSelect';
import { PageHeader } from '../../components/PageHeader';
import { useGrants } from '../../lib/permissions';
import { useLiveDashboard } from './live-dashboard';

const FILTERS = ['fromDate', 'toDate', 'inDays', 'masterAppId'] as const;

const DaysField = lazy(() => import('./PeriodFields').then((m) => ({ default: m.DaysField })));
const RangeField = lazy(() => import('./PeriodFields').then((m) => ({ default: m.RangeField })));
// The charts (Recharts) are most of the dashboard's code: loaded once their place is near the
// screen, after the counts, so they never hold up the first paint (on a phone they start below it).
const Trends = lazy(() => import('./Trends'));

/** The counts; `users` only for an account that may view users (the server sends it to no other). */
const STATS: {
  key: keyof DashboardCounts;
  label: string;
  icon: Icon;
  color: string;
  users?: true;
}[] = [
  { key: 'totalUser', label: 'Users', icon: IconUsers, color: 'indigo', users: true },
  { key: 'totalCategory', label: 'Categories', icon: IconCategory, color: 'grape' },
  { key: 'totalPoster', label: 'Posters', icon: IconPhotoStar, color: 'teal' },
  { key: 'downloadPoster', label: 'Poster downloads', icon: IconDownload, color: 'orange' },
];

type Period = 'all' | 'days' | 'range';

const PERIODS: { value: Period; label: string }[] = [
  { value: 'all', label: 'All time' },
  { value: 'days', label: 'Last N days' },
  { value: 'range', label: 'Date range' },
];

export default function DashboardPage() {
  const { filters, setFilters } = useListParams(FILTERS);
  useLiveDashboard();
  const [period, setPeriod] = useState<Period>(
    filters.inDays ? 'days' : filters.fromDate || filters.toDate ? 'range' : 'all',
  );

  const choosePeriod = (next: Period) => {
    setPeriod(next);
    if (next === 'all') setFilters({ inDays: undefined, fromDate: undefined, toDate: undefined });
    if (next === 'days')
      setFilters({ inDays: filters.inDays || '30', fromDate: undefined, toDate: undefined });
    if (next === 'range') setFilters({ inDays: undefined });
  };

  return (
    <>
      <PageHeader title="Dashboard" description="What was created in the chosen period." />
      <Paper withBorder p="md" mb="lg">
        <Group align="flex-end" gap="md" wrap="wrap">
          <Stack gap={4}>
            <Text size="sm" fw={500} id="period-label">
              Period
            </Text>
            {/* Plain toggle buttons: a segmented control measures the page while the dashboard
                first renders, and chips (like every Mantine input) set a generated id right
                after mounting, one more synchronous render each. */}
            <Group gap="xs" mih={36} role="group" aria-labelledby="period-label">
              {PERIODS.map(({ value, label }) => (
                <Button
                  key={value}
                  size="compact-sm"
                  h={32}
                  px="md"
                  radius="xl"
                  variant={period === value ? 'light' : 'default'}
                  aria-pressed={period === value}
                  onClick={() => choosePeriod(value)}
                >
                  {label}
                </Button>
              ))}
            </Group>
          </Stack>
          <Suspense fallback={<Skeleton h={36} w={period === 'range' ? 280 : 140} />}>
            {period === 'days' && (
              <DaysField value={filters.inDays} onChange={(inDays) => setFilters({ inDays })} />
            )}
            {period === 'range' && (
              <RangeField from={filters.fromDate} to={filters.toDate} onChange={setFilters} />
            )}
          </Suspense>
          <MasterAppSelect
            w={220}
            value={filters.masterAppId}
            onChange={(v) => setFilters({ masterAppId: v })}
          />
          {(period !== 'all' || filters.masterAppId) && (
            <Button
              variant="subtle"
              onClick={() => {
                setPeriod('all');
                setFilters({
                  inDays: undefined,
                  fromDate: undefined,
                  toDate: undefined,
                  masterAppId: undefined,
                });
              }}
            >
              Clear filters
            </Button>
          )}
        </Group>
      </Paper>

      <Counts filters={filters} />
      <BelowTheCounts>
        <Suspense fallback={<Skeleton h={320} mt="xl" />}>
          <Trends filters={filters} />
        </Suspense>
      </BelowTheCounts>
    </>
  );
}

/**
 * The four counts, a component of their own: their answer re-renders only the cards, not the
 * filters above them.
 */
function Counts(props: { filters: Record<(typeof FILTERS)[number], string> }) {
  const mayViewUsers = useGrants('users').view;
  const stats = STATS.filter((s) => !s.users || mayViewUsers);
  const counts = useQuery({
    queryKey: ['dashboard', props.filters],
    queryFn: () => api.get(PATHS.dashboard, dashboardCounts, props.filters),
  });
  return counts.isError ? (
    <Alert color="red" icon={<IconAlertTriangle size={18} />} title="Could not load the counts">
      <Group justify="space-between">
        <Text size="sm">{errorText(counts.error)}</Text>
        <Button size="xs" variant="light" color="red" onClick={() => void counts.refetch()}>
          Try again
        </Button>
      </Group>
    </Alert>
  ) : (
    <SimpleGrid cols={{ base: 1, xs: 2, lg: stats.length }}>
      {stats.map(({ key, label, icon: StatIcon, color }) => (
        <Paper key={key} withBorder p="lg" radius="md" data-testid={`stat-${key}`}>
          <Group justify="space-between" align="flex-start">
            <div>
              <Text size="sm" c="dimmed" fw={500}>
                {label}
              </Text>
              {counts.data ? (
                <Text fz={32} fw={700} lh={1.2} data-testid="stat-value">
                  {formatNumber(counts.data[key] ?? 0)}
                </Text>
              ) : (
                // As tall as the number that replaces it.
                <Skeleton w={80}>
                  <Text fz={32} fw={700} lh={1.2}>
                    0
                  </Text>
                </Skeleton>
              )}
            </div>
            <ThemeIcon variant="light" color={color} size={44} radius="md">
              <StatIcon size={24} />
            </ThemeIcon>
          </Group>
        </Paper>
      ))}
    </SimpleGrid>
  );
}

/** Renders its children once its place scrolls into view. */
function BelowTheCounts(props: { children: React.ReactNode }) {
  const place = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const element = place.current;
    if (near || !element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setNear(true);
      },
      { rootMargin: '0px' },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [near]);
  return near ? props.children : <div ref={place} style={{ minHeight: 320 }} />;
}
