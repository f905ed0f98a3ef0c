/**
 * The dashboard's charts, a chunk of their own (Recharts through @mantine/charts is most of the
 * dashboard's code): Trends.tsx draws them after the page has painted, one at a time.
 */
// The charts' legends draw their colours with ColorSwatch, whose styles the app does not load
// otherwise (it imports Mantine's CSS per component).
import '@mantine/core/styles/ColorSwatch.css';
import '@mantine/charts/styles.css';
import { AreaChart, BarChart } from '@mantine/charts';
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

export function DownloadsChart(props: { points: TrendPoint[] }) {
  return (
    <AreaChart
      h={240}
      data={props.points}
      dataKey="label"
      series={[{ name: 'downloads', label: 'Downloads', color: 'orange.6' }]}
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
    />
  );
}

export function TopCategoriesChart(props: {
  rows: CategoryDownloads[];
  height: number;
  /** Opens the category's posters; none when the account may not view posters. */
  onPick?: (category: CategoryDownloads) => void;
}) {
  const { rows } = props;
  return (
    <BarChart
      h={props.height}
      data={rows}
      dataKey="name"
      orientation="vertical"
      // Every category named, not fitted (see timeAxes). The value axis stays fitted: its last
      // value ("24,000") is kept inside the chart, which a fixed step would let run past a phone's
      // edge, and its four or five labels cost little to measure.
      yAxisProps={{ width: 90, interval: 0 }}
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
