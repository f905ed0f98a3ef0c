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

export type TrendPoint = { label: string; downloads: number; posters: number; users: number };
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
      areaChartProps={{ accessibilityLayer: false }}
    />
  );
}

export function NewRowsChart(props: { points: TrendPoint[] }) {
  return (
    <BarChart
      h={240}
      data={props.points}
      dataKey="label"
      series={[
        { name: 'posters', label: 'Posters', color: 'teal.6' },
        { name: 'users', label: 'Users', color: 'indigo.6' },
      ]}
      withLegend
      valueFormatter={formatNumber}
      barChartProps={{ accessibilityLayer: false }}
    />
  );
}

export function TopCategoriesChart(props: {
  rows: CategoryDownloads[];
  height: number;
  onPick: (category: CategoryDownloads) => void;
}) {
  const { rows } = props;
  return (
    <BarChart
      h={props.height}
      data={rows}
      dataKey="name"
      orientation="vertical"
      yAxisProps={{ width: 90 }}
      series={[{ name: 'downloads', label: 'Downloads', color: 'grape.6' }]}
      valueFormatter={formatNumber}
      barChartProps={{ accessibilityLayer: false }}
      barProps={{
        cursor: 'pointer',
        onClick: (_: unknown, index: number) => {
          const c = rows[index];
          if (c) props.onPick(c);
        },
      }}
    />
  );
}
