/**
 * The dashboard's charts, a chunk of their own (Recharts through @mantine/charts is most of the
 * dashboard's code): Trends.tsx draws them after the page has painted, one at a time.
 */
// The charts' legends draw their colours with ColorSwatch, whose styles the app does not load
// otherwise (it imports Mantine's CSS per component).
import '@mantine/core/styles/ColorSwatch.css';
import '@mantine/charts/styles.css';
import { AreaChart, BarChart } from '@mantine/charts';
import { Rectangle, type BarShapeProps } from 'recharts';
import { evenTicks } from './chart-axes';
import { formatNumber } from '../../lib/format';

export type TrendPoint = {
  /** The period, as the tooltip and the table name it ("Week of 6 Jan"). */
  label: string;
  /** The period as the axis names it ("6 Jan"). */
  tick: string;
  downloads: number;
  posters: number;
  /** Absent for an account that may not view users. */
  users?: number;
  /** The period is still under way: its numbers are so far. */
  partial: boolean;
};

/** The most periods named along a chart's time axis: they fit a phone's width. */
const TIME_TICKS = 5;

/**
 * The axes of a chart over time: every so many periods named, a fixed step rather than fitted to
 * the width. Fitting (Recharts' default) measures each label in the page, and that was most of a
 * chart's drawing time: a long task on the dashboard.
 */
function timeAxes(points: TrendPoint[]) {
  const ticks = new Map(points.map((p) => [p.label, p.tick]));
  return {
    xAxisProps: {
      interval: Math.max(0, Math.ceil(points.length / TIME_TICKS) - 1),
      tickFormatter: (label: string) => ticks.get(label) ?? label,
    },
    // The few values of the other axis are all named.
    yAxisProps: { interval: 0 },
    // The grid draws no vertical lines (gridAxis "x"), yet Recharts places them by fitting the
    // time axis's labels all the same: nothing to place.
    gridProps: { verticalCoordinatesGenerator: () => [] },
  };
}
export type CategoryDownloads = { id: number; name: string; downloads: number };

/**
 * The downloads line: whole periods solid, the one under way dashed from the last whole one (a
 * second series), so a day barely begun does not read as a fall.
 */
function withSoFar(points: TrendPoint[]) {
  const last = points.at(-1);
  if (!last?.partial) return { data: points, dashed: false };
  const data = points.map((p, i) => ({
    ...p,
    downloads: p.partial ? null : p.downloads,
    soFar: i >= points.length - 2 ? p.downloads : null,
  }));
  return { data, dashed: true };
}

export function DownloadsChart(props: { points: TrendPoint[] }) {
  const { data, dashed } = withSoFar(props.points);
  return (
    <AreaChart
      h={240}
      data={data}
      dataKey="label"
      series={[
        { name: 'downloads', label: 'Downloads', color: 'orange.6' },
        ...(dashed
          ? [{ name: 'soFar', label: 'So far', color: 'orange.6', strokeDasharray: '5 4' }]
          : []),
      ]}
      curveType="monotone"
      withDots={props.points.length <= 31}
      valueFormatter={formatNumber}
      {...timeAxes(props.points)}
      areaChartProps={{ accessibilityLayer: false }}
    />
  );
}

export function NewRowsChart(props: { points: TrendPoint[]; withUsers: boolean }) {
  return (
    <BarChart
      h={240}
      data={props.points}
      dataKey="label"
      series={[
        { name: 'posters', label: 'Posters', color: 'teal.6' },
        ...(props.withUsers ? [{ name: 'users', label: 'Users', color: 'indigo.6' }] : []),
      ]}
      withLegend
      valueFormatter={formatNumber}
      {...timeAxes(props.points)}
      barChartProps={{ accessibilityLayer: false }}
      // The period under way: faded, with a dashed edge (its numbers are so far).
      barProps={{ shape: partialBar }}
    />
  );
}

function partialBar(props: BarShapeProps) {
  const partial = (props.payload as TrendPoint | undefined)?.partial === true;
  return partial ? (
    <Rectangle {...props} fillOpacity={0.35} stroke={props.fill} strokeDasharray="4 3" />
  ) : (
    <Rectangle {...props} />
  );
}

export function TopCategoriesChart(props: {
  rows: CategoryDownloads[];
  height: number;
  /** Opens the category's posters; none when the account may not view posters. */
  onPick?: (category: CategoryDownloads) => void;
}) {
  const { rows } = props;
  // Even steps, every one named (fitted, Recharts dropped one: 0 / 6,000 / 12,000 / 24,000).
  const ticks = evenTicks(Math.max(0, ...rows.map((r) => r.downloads)));
  return (
    <BarChart
      h={props.height}
      data={rows}
      dataKey="name"
      orientation="vertical"
      // Every category named, not fitted (see timeAxes).
      yAxisProps={{ width: 90, interval: 0 }}
      // The last label is kept inside the chart by the right padding.
      xAxisProps={{
        ticks,
        domain: [0, ticks.at(-1) ?? 1],
        interval: 0,
        padding: { left: 0, right: 24 },
      }}
      series={[{ name: 'downloads', label: 'Downloads', color: 'grape.6' }]}
      valueFormatter={formatNumber}
      barChartProps={{ accessibilityLayer: false }}
      barProps={
        props.onPick
          ? {
              cursor: 'pointer',
              onClick: (_: unknown, index: number) => {
                const c = rows[index];
                if (c) props.onPick?.(c);
              },
            }
          : undefined
      }
    />
  );
}
