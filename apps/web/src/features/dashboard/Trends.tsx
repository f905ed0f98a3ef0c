/**
 * The dashboard's trends, loaded lazily below the counts: downloads, new posters and users over
 * time, the most downloaded categories and posters, and the next special days with their active
 * posters. Every card links to the list behind it, when the account may open that list (a link
 * to "Access Denied!" is no link); new users show only to an account that may view users (the
 * server leaves them out for others). The charts themselves (TrendCharts.tsx) are a chunk of their
 * own, drawn after the page has painted.
 */
import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { Link, useNavigate } from 'react-router';
import type { UseQueryResult } from '@tanstack/react-query';
import { TREND_BUCKETS, TREND_MAX_BUCKETS, type TrendBucket } from '@master-admin/contract';
import { errorText } from '../../lib/api';
import { formatDate, formatNumber } from '../../lib/format';
import { useListParams } from '../../lib/list';
import { POSTER_RATIO, Thumbnail } from '../../components/Thumbnail';
import { ChartCard } from './ChartCard';
import { hrefTo, useTop, useTrend, useUpcomingSpecialDays, type PeriodFilters } from './trends-api';
import { underWay } from './chart-axes';
import { useGrants } from '../../lib/permissions';

/** A link to `to` when the account may open it, else the same words as plain text. */
function MaybeLink(props: { open: boolean; to: string; children: ReactNode; fw?: number }) {
  return props.open ? (
    <Anchor component={Link} to={props.to} size="sm" fw={props.fw}>
      {props.children}
    </Anchor>
  ) : (
    <Text size="sm" fw={props.fw} span>
      {props.children}
    </Text>
  );
}

const loadCharts = () => import('./TrendCharts');
const DownloadsChart = lazy(() => loadCharts().then((m) => ({ default: m.DownloadsChart })));
const NewRowsChart = lazy(() => loadCharts().then((m) => ({ default: m.NewRowsChart })));
const TopCategoriesChart = lazy(() =>
  loadCharts().then((m) => ({ default: m.TopCategoriesChart })),
);

/**
 * Turns for the charts to draw: one chart per moment the browser is idle, after the page has
 * painted, and the next only once the one before is on the page. A chart is a long task on a slow
 * phone, and the three drawn together blocked input for about a second (Lighthouse's total
 * blocking time on the dashboard); turns that ended in the same idle moment were still drawn
 * together, in one task.
 */
let turns: Promise<void> = Promise.resolve();
function nextTurn(): { start: Promise<void>; done: () => void } {
  let done = () => {};
  const drawn = new Promise<void>((resolve) => (done = resolve));
  const start = turns.then(
    () =>
      new Promise<void>((resolve) => {
        if (typeof requestIdleCallback === 'function') {
          requestIdleCallback(() => resolve(), { timeout: 1000 });
        } else {
          setTimeout(resolve, 1);
        }
      }),
  );
  turns = start.then(() => drawn);
  return { start, done };
}

/** A chart's place, held by a skeleton of its height until its turn to draw. */
function DeferredChart(props: { height: number; children: ReactNode }) {
  // Set when this chart's turn has come: what hands the turn on once it is drawn.
  const [done, setDone] = useState<() => void>();
  useEffect(() => {
    let live = true;
    const mine = nextTurn();
    void Promise.all([mine.start, loadCharts()]).then(() => {
      if (live) setDone(() => mine.done);
      else mine.done();
    });
    return () => {
      live = false;
      // A chart that goes before its turn ends hands it on.
      mine.done();
    };
  }, []);
  const placeholder = <Skeleton h={props.height} />;
  if (!done) return placeholder;
  return (
    <Suspense fallback={placeholder}>
      {props.children}
      <OnDrawn then={done} />
    </Suspense>
  );
}

/** Calls `then` once what comes before it in its Suspense boundary is on the page. */
function OnDrawn(props: { then: () => void }) {
  const { then } = props;
  useEffect(() => then(), [then]);
  return null;
}

/** The top categories chart's height: a bar per category. */
function categoriesHeight(rows: number) {
  return Math.max(120, rows * 40);
}

const BUCKET_LABELS: Record<TrendBucket, string> = { day: 'Day', week: 'Week', month: 'Month' };
const BUCKET_DAYS: Record<TrendBucket, number> = { day: 1, week: 7, month: 28 };

/** How many days the chosen period spans, when it has both ends. */
function periodDays(f: PeriodFilters): number | undefined {
  if (f.inDays) return Number(f.inDays) + 1;
  if (f.fromDate && f.toDate) return dayjs(f.toDate).diff(dayjs(f.fromDate), 'day') + 1;
  return undefined;
}

function bucketLabel(bucket: TrendBucket, start: string): string {
  if (bucket === 'month') return dayjs(start).format('MMM YYYY');
  if (bucket === 'week') return `Week of ${dayjs(start).format('D MMM')}`;
  return dayjs(start).format('D MMM');
}

/** A period as a chart's axis names it: a week by its first day. */
function bucketTick(bucket: TrendBucket, start: string): string {
  return bucket === 'month' ? dayjs(start).format('MMM YYYY') : dayjs(start).format('D MMM');
}

/** A card's place while its numbers load, or the error with a retry. */
function pending(query: UseQueryResult, what: string, height: number) {
  if (query.isError) {
    return (
      <Alert color="red" icon={<IconAlertTriangle size={18} />} title={`Could not load ${what}`}>
        <Group justify="space-between">
          <Text size="sm">{errorText(query.error)}</Text>
          <Button size="xs" variant="light" color="red" onClick={() => void query.refetch()}>
            Try again
          </Button>
        </Group>
      </Alert>
    );
  }
  return query.data ? undefined : <Skeleton h={height} />;
}

export default function Trends(props: { filters: PeriodFilters }) {
  const { filters: own, setFilter } = useListParams(['bucket'] as const);
  const bucket = (TREND_BUCKETS as readonly string[]).includes(own.bucket)
    ? (own.bucket as TrendBucket)
    : undefined;
  const trend = useTrend(props.filters, bucket);
  const top = useTop(props.filters);
  const app = props.filters.masterAppId;
  const shown = trend.data?.bucket ?? bucket;
  // A chosen period longer than the server answers in one bucket size: that size is not offered.
  const days = periodDays(props.filters);
  const tooMany = (b: TrendBucket) =>
    days !== undefined && days / BUCKET_DAYS[b] > TREND_MAX_BUCKETS - 1;

  return (
    <Stack mt="xl" gap="md">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <div>
          <Title order={3}>Trends</Title>
          {/* The line is there before the numbers, so the cards below do not move when they come. */}
          <Text size="sm" c="dimmed">
            {trend.data ? (
              <>
                {formatDate(trend.data.from)} to {formatDate(trend.data.to)}, in UTC
                {trend.data.bucket === 'week' ? ' (weeks start on Monday)' : ''}
              </>
            ) : (
              '\u00a0'
            )}
          </Text>
        </div>
        <Group gap="xs" role="group" aria-label="Group by">
          {TREND_BUCKETS.map((b) => (
            <Button
              key={b}
              size="compact-sm"
              radius="xl"
              variant={shown === b ? 'light' : 'default'}
              aria-pressed={shown === b}
              disabled={tooMany(b)}
              onClick={() => setFilter('bucket', b)}
            >
              {BUCKET_LABELS[b]}
            </Button>
          ))}
        </Group>
      </Group>

      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <DownloadsCard trend={trend} app={app} />
        <NewRowsCard trend={trend} app={app} />
      </SimpleGrid>

      <SimpleGrid cols={{ base: 1, md: 3 }}>
        <TopCategoriesCard top={top} app={app} />
        <TopPostersCard top={top} />
        <UpcomingDaysCard app={app} />
      </SimpleGrid>
    </Stack>
  );
}

type TrendQuery = ReturnType<typeof useTrend>;

/**
 * A trend's points as the charts and tables name them; the period still under way (today's day,
 * week or month) is named "so far" and drawn so (TrendCharts.tsx), not as a drop.
 */
function chartPoints(data: TrendQuery['data']) {
  if (!data) return [];
  return data.points.map((p) => {
    const partial = underWay(data.bucket, p.start);
    const label = bucketLabel(data.bucket, p.start);
    return {
      ...p,
      partial,
      label: partial ? `${label} (so far)` : label,
      tick: bucketTick(data.bucket, p.start),
    };
  });
}
type TopQuery = ReturnType<typeof useTop>;

function DownloadsCard({ trend, app }: { trend: TrendQuery; app: string }) {
  const posters = useGrants('poster').view;
  const points = chartPoints(trend.data);
  return (
    <ChartCard
      title="Downloads"
      testId="trend-downloads"
      link={
        posters
          ? {
              to: hrefTo('/poster', { masterAppId: app, sort: '-downloadCount' }),
              label: 'Most downloaded posters',
            }
          : undefined
      }
      status={pending(trend, 'the downloads', 240)}
      table={{
        caption: 'Poster downloads per period',
        columns: ['Period', 'Downloads'],
        rows: points.map((p) => [p.label, formatNumber(p.downloads)]),
      }}
    >
      <DeferredChart height={240}>
        <DownloadsChart points={points} />
      </DeferredChart>
    </ChartCard>
  );
}

function NewRowsCard({ trend, app }: { trend: TrendQuery; app: string }) {
  const posters = useGrants('poster').view;
  const users = useGrants('users').view;
  const points = chartPoints(trend.data);
  const title = users ? 'New posters and users' : 'New posters';
  return (
    <ChartCard
      title={title}
      testId="trend-new"
      footer={
        users ? (
          <Anchor component={Link} to={hrefTo('/users', { masterAppId: app })} size="sm">
            Newest users
          </Anchor>
        ) : undefined
      }
      link={
        posters
          ? { to: hrefTo('/poster', { masterAppId: app }), label: 'Newest posters' }
          : undefined
      }
      status={pending(trend, `the ${title.toLowerCase()}`, 240)}
      table={
        users
          ? {
              caption: 'New posters and new users per period',
              columns: ['Period', 'New posters', 'New users'],
              rows: points.map((p) => [
                p.label,
                formatNumber(p.posters),
                formatNumber(p.users ?? 0),
              ]),
            }
          : {
              caption: 'New posters per period',
              columns: ['Period', 'New posters'],
              rows: points.map((p) => [p.label, formatNumber(p.posters)]),
            }
      }
    >
      <DeferredChart height={240}>
        <NewRowsChart points={points} withUsers={users} />
      </DeferredChart>
    </ChartCard>
  );
}

function TopCategoriesCard({ top, app }: { top: TopQuery; app: string }) {
  const navigate = useNavigate();
  const posters = useGrants('poster').view;
  const categories = useGrants('category').view;
  const rows = top.data?.categories ?? [];
  const to = (id: number) =>
    hrefTo('/poster', { categoryId: id, masterAppId: app, sort: '-downloadCount' });
  const empty = top.data && rows.length === 0;
  return (
    <ChartCard
      title="Top categories"
      testId="top-categories"
      link={categories ? { to: '/category', label: 'All categories' } : undefined}
      status={pending(top, 'the top categories', 200) ?? (empty ? <NoDownloads /> : undefined)}
      table={{
        caption: 'Categories by downloads in the period',
        columns: ['Category', 'Downloads'],
        rows: rows.map((c) => [
          <MaybeLink key={c.id} open={posters} to={to(c.id)}>
            {c.name}
          </MaybeLink>,
          formatNumber(c.downloads),
        ]),
      }}
    >
      <DeferredChart height={categoriesHeight(rows.length)}>
        <TopCategoriesChart
          rows={rows}
          height={categoriesHeight(rows.length)}
          onPick={posters ? (c) => void navigate(to(c.id)) : undefined}
        />
      </DeferredChart>
    </ChartCard>
  );
}

function NoDownloads() {
  return (
    <Text size="sm" c="dimmed" py="md">
      No downloads recorded in this period.
    </Text>
  );
}

function TopPostersCard({ top }: { top: TopQuery }) {
  const posters = useGrants('poster').view;
  const rows = top.data?.posters ?? [];
  return (
    <Paper withBorder p="md" radius="md" data-testid="top-posters">
      <Group justify="space-between" mb="sm">
        <Text fw={600}>Top posters</Text>
        {posters && (
          <Anchor component={Link} to="/poster?sort=-downloadCount" size="sm">
            All posters
          </Anchor>
        )}
      </Group>
      {pending(top, 'the top posters', 200) ??
        (rows.length === 0 ? (
          <NoDownloads />
        ) : (
          <Stack gap="xs" component="ol" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {rows.map((p) => (
              <Group key={p.id} component="li" gap="sm" wrap="nowrap">
                <Thumbnail src={p.poster} alt="" size={40} ratio={POSTER_RATIO} />
                <div style={{ flex: 1, minWidth: 0 }}>
                  <MaybeLink
                    open={posters}
                    to={hrefTo('/poster', {
                      categoryId: p.category.id,
                      masterAppId: p.masterApp.id,
                      sort: '-downloadCount',
                    })}
                    fw={500}
                  >
                    Poster #{p.id} · {p.category.name}
                  </MaybeLink>
                  <Text size="xs" c="dimmed" truncate>
                    {p.masterApp.name}
                    {p.specialDay ? ` · ${p.specialDay.name}` : ''}
                  </Text>
                </div>
                <Text size="sm" fw={600}>
                  {formatNumber(p.downloads)}
                  <Text span size="xs" c="dimmed" fw={400}>
                    {' '}
                    downloads
                  </Text>
                </Text>
              </Group>
            ))}
          </Stack>
        ))}
    </Paper>
  );
}

function UpcomingDaysCard({ app }: { app: string }) {
  const posters = useGrants('poster').view;
  const calendar = useGrants('specialDay').view;
  const days = useUpcomingSpecialDays(app);
  const rows = days.data?.result ?? [];
  return (
    <Paper withBorder p="md" radius="md" data-testid="upcoming-days">
      <Group justify="space-between" mb="sm">
        <Text fw={600}>Next special days</Text>
        {calendar && (
          <Anchor component={Link} to="/special-day?view=calendar" size="sm">
            Calendar
          </Anchor>
        )}
      </Group>
      {pending(days, 'the next special days', 200) ??
        (rows.length === 0 ? (
          <Text size="sm" c="dimmed" py="md">
            No active special days.
          </Text>
        ) : (
          <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {rows.map((d) => (
              <li key={d.id}>
                <Group justify="space-between" wrap="nowrap" gap="xs">
                  <MaybeLink
                    open={posters}
                    to={hrefTo('/poster', {
                      specialDayId: d.id,
                      masterAppId: app,
                    })}
                    fw={500}
                  >
                    {d.name}
                  </MaybeLink>
                  <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                    {formatDate(d.date)}
                  </Text>
                </Group>
                <Group gap={6} mt={2}>
                  {d.activePosters === 0 ? (
                    <Badge color="red" variant="light" size="sm">
                      No active posters
                    </Badge>
                  ) : (
                    <Text size="xs">{formatNumber(d.activePosters)} active posters</Text>
                  )}
                  {d.apps.map((a) => (
                    <Text
                      key={a.id}
                      size="xs"
                      c={
                        a.activePosters === 0
                          ? 'light-dark(var(--mantine-color-red-8), var(--mantine-color-red-4))'
                          : 'dimmed'
                      }
                    >
                      {a.name}: {a.activePosters}
                    </Text>
                  ))}
                </Group>
              </li>
            ))}
          </Stack>
        ))}
    </Paper>
  );
}
