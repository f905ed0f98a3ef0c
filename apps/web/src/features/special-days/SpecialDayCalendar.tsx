/**
 * The special days of a month as a calendar (a list of the days that have some, on a phone): each
 * with its active posters per app, a link to its posters, and, with UPDATE permission, a move by
 * dialog or by dragging it onto another day. The month shown is in the URL (`month=YYYY-MM`).
 */
import {
  ActionIcon,
  Alert,
  Anchor,
  Button,
  Group,
  Paper,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import {
  IconAlertTriangle,
  IconArrowsMove,
  IconChevronLeft,
  IconChevronRight,
} from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { Link, useSearchParams } from 'react-router';
import {
  MONTH_NAMES,
  PATHS,
  specialDayCalendar,
  type CoverageDay,
  type SpecialDayPosters,
} from '@master-admin/contract';
import { api, errorText } from '../../lib/api';
import { usePhone } from '../../lib/phone';
import { StatusBadge } from '../../components/StatusBadge';
import { specialDayKeys, useCoverage } from './api';

export type CalendarDay = SpecialDayPosters;
type Target = { month: number; day: number };

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const MONTH_PARAM = /^(\d{4})-(0[1-9]|1[0-2])$/;

function isLeapYear(year: number) {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function useCalendarMonth() {
  const [search, setSearch] = useSearchParams();
  const match = MONTH_PARAM.exec(search.get('month') ?? '');
  const now = new Date();
  const year = match ? Number(match[1]) : now.getFullYear();
  const month = match ? Number(match[2]) : now.getMonth() + 1;
  const go = (delta: number) => {
    const d = new Date(Date.UTC(year, month - 1 + delta, 1));
    const value = `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
    setSearch((prev) => {
      const next = new URLSearchParams(prev);
      next.set('month', value);
      return next;
    });
  };
  return { year, month, go };
}

export function SpecialDayCalendar(props: {
  onMove?: (d: CalendarDay) => void;
  onDrop?: (d: CalendarDay, to: Target) => void;
}) {
  const { year, month, go } = useCalendarMonth();
  const wide = !usePhone();
  const calendar = useQuery({
    queryKey: [...specialDayKeys.all, 'calendar', month],
    queryFn: () => api.get(PATHS.specialDayCalendar, specialDayCalendar, { month }),
  });
  const title = `${MONTH_NAMES[month - 1]} ${year}`;
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const plan = useCoverage(`${year}-${String(month).padStart(2, '0')}-01`, lastDay);
  const coverageOf = (day: number) => plan.data?.days[day - 1];
  const rows = calendar.data?.result ?? [];
  const byDay = new Map<number, CalendarDay[]>();
  for (const d of rows) byDay.set(d.day, [...(byDay.get(d.day) ?? []), d]);
  // 29 February has no square in a year without it.
  const leapOnly = month === 2 && !isLeapYear(year) ? (byDay.get(29) ?? []) : [];

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={3} aria-live="polite">
          {title}
        </Title>
        <Group gap="xs">
          <ActionIcon
            variant="default"
            size="lg"
            aria-label="Previous month"
            onClick={() => go(-1)}
          >
            <IconChevronLeft size={18} />
          </ActionIcon>
          <ActionIcon variant="default" size="lg" aria-label="Next month" onClick={() => go(1)}>
            <IconChevronRight size={18} />
          </ActionIcon>
        </Group>
      </Group>
      {calendar.isError ? (
        <Alert color="red" icon={<IconAlertTriangle size={18} />} title="Could not load the month">
          <Group justify="space-between">
            <Text size="sm">{errorText(calendar.error)}</Text>
            <Button size="xs" variant="light" color="red" onClick={() => void calendar.refetch()}>
              Try again
            </Button>
          </Group>
        </Alert>
      ) : !calendar.data ? (
        <Skeleton h={wide ? 480 : 240} />
      ) : wide ? (
        <MonthGrid
          year={year}
          month={month}
          lastDay={lastDay}
          byDay={byDay}
          title={title}
          coverageOf={coverageOf}
          {...props}
        />
      ) : (
        <MonthList
          year={year}
          month={month}
          lastDay={lastDay}
          byDay={byDay}
          coverageOf={coverageOf}
          {...props}
        />
      )}
      {leapOnly.length > 0 && (
        <Paper withBorder p="sm">
          <Text size="sm" fw={500} mb={4}>
            29 February (leap years only)
          </Text>
          <Stack gap={6}>
            {leapOnly.map((d) => (
              <DayEntry key={d.id} day={d} {...props} />
            ))}
          </Stack>
        </Paper>
      )}
    </Stack>
  );
}

type ViewProps = {
  /** The day's coverage (posters live per app), once loaded. */
  coverageOf: (day: number) => CoverageDay | undefined;
  year: number;
  month: number;
  lastDay: number;
  byDay: Map<number, CalendarDay[]>;
  onMove?: (d: CalendarDay) => void;
  onDrop?: (d: CalendarDay, to: Target) => void;
};

const DRAG_TYPE = 'application/x-special-day';

function MonthGrid(props: ViewProps & { title: string }) {
  const { year, month, lastDay, byDay, onDrop } = props;
  const lead = (new Date(Date.UTC(year, month - 1, 1)).getUTCDay() + 6) % 7; // Monday first
  const cells: Array<number | null> = [
    ...Array.from({ length: lead }, () => null),
    ...Array.from({ length: lastDay }, (_, i) => i + 1),
  ];
  while (cells.length % 7 !== 0) cells.push(null);
  const weeks = Array.from({ length: cells.length / 7 }, (_, w) => cells.slice(w * 7, w * 7 + 7));
  const today = new Date();
  const isToday = (day: number) =>
    today.getFullYear() === year && today.getMonth() + 1 === month && today.getDate() === day;
  const all = [...byDay.values()].flat();

  return (
    <Table withTableBorder withColumnBorders layout="fixed" aria-label={props.title}>
      <Table.Thead>
        <Table.Tr>
          {WEEKDAYS.map((w) => (
            <Table.Th key={w} scope="col" ta="center">
              {w}
            </Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {weeks.map((week, i) => (
          <Table.Tr key={i}>
            {week.map((day, j) => (
              <Table.Td
                key={j}
                valign="top"
                h={104}
                p={6}
                data-testid={day ? `calendar-day-${day}` : undefined}
                bg={day && isToday(day) ? 'var(--mantine-primary-color-light)' : undefined}
                onDragOver={
                  day && onDrop
                    ? (e) => {
                        if (e.dataTransfer.types.includes(DRAG_TYPE)) e.preventDefault();
                      }
                    : undefined
                }
                onDrop={
                  day && onDrop
                    ? (e) => {
                        const id = Number(e.dataTransfer.getData(DRAG_TYPE));
                        const moved = all.find((d) => d.id === id);
                        e.preventDefault();
                        if (moved && moved.day !== day) onDrop(moved, { month, day });
                      }
                    : undefined
                }
              >
                {day && (
                  <>
                    <Text size="xs" fw={600} c={isToday(day) ? undefined : 'dimmed'}>
                      {day}
                    </Text>
                    <Stack gap={4}>
                      {(byDay.get(day) ?? []).map((d) => (
                        <DayEntry key={d.id} day={d} {...props} draggable />
                      ))}
                      <DayCoverage coverage={props.coverageOf(day)} />
                    </Stack>
                  </>
                )}
              </Table.Td>
            ))}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function MonthList(props: ViewProps) {
  const days = [...props.byDay.keys()].filter((d) => d <= props.lastDay).sort((a, b) => a - b);
  if (days.length === 0) {
    return (
      <Text c="dimmed" size="sm">
        No special days this month.
      </Text>
    );
  }
  return (
    <Stack gap="sm">
      {days.map((day) => (
        <Paper key={day} withBorder p="sm" data-testid={`calendar-day-${day}`}>
          <Text size="sm" fw={600} mb={4}>
            {dayjs(new Date(props.year, props.month - 1, day)).format('ddd D MMM')}
          </Text>
          <Stack gap={6}>
            {(props.byDay.get(day) ?? []).map((d) => (
              <DayEntry key={d.id} day={d} {...props} />
            ))}
            <DayCoverage coverage={props.coverageOf(day)} />
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}

/** One special day in a square: its name (to its posters), its active posters, its move. */
function DayEntry(props: {
  day: CalendarDay;
  onMove?: (d: CalendarDay) => void;
  onDrop?: (d: CalendarDay, to: Target) => void;
  draggable?: boolean;
}) {
  const { day: d, onMove } = props;
  const draggable = Boolean(props.draggable && props.onDrop);
  return (
    <div
      draggable={draggable}
      onDragStart={draggable ? (e) => e.dataTransfer.setData(DRAG_TYPE, String(d.id)) : undefined}
      style={draggable ? { cursor: 'grab' } : undefined}
    >
      <Group gap={4} wrap="nowrap" justify="space-between">
        <Anchor
          component={Link}
          to={`/poster?specialDayId=${d.id}`}
          size="sm"
          fw={500}
          lh={1.3}
          style={{ overflowWrap: 'anywhere' }}
        >
          {d.name}
        </Anchor>
        {onMove && (
          <ActionIcon
            variant="subtle"
            size="sm"
            aria-label={`Move ${d.name} to another date`}
            onClick={() => onMove(d)}
          >
            <IconArrowsMove size={14} />
          </ActionIcon>
        )}
      </Group>
      {d.status !== 'ACTIVE' && <StatusBadge status={d.status} />}
    </div>
  );
}

/**
 * A day's posters live per app, in one line: the apps with none (a gap) in orange, by name, with
 * the plan one click away; quiet when every app has some.
 */
function DayCoverage(props: { coverage: CoverageDay | undefined }) {
  const c = props.coverage;
  if (!c || c.specialDays.length === 0) return null;
  const gaps = c.apps.filter((a) => a.posters === 0);
  if (gaps.length === 0) {
    return (
      <Text size="xs" c="dimmed">
        {c.apps.length === 1 ? 'Covered' : `All ${c.apps.length} apps covered`}
      </Text>
    );
  }
  return (
    <Anchor
      component={Link}
      to="?view=plan"
      size="xs"
      // The page's text colour, bolder: orange text on white reads under AA (3.6:1).
      fw={600}
      lh={1.3}
      title={`No poster live that day in ${gaps.map((a) => a.name).join(', ')}`}
    >
      {gaps.length === c.apps.length
        ? 'No poster in any app'
        : `No poster in ${gaps.map((a) => a.name).join(', ')}`}
    </Anchor>
  );
}
