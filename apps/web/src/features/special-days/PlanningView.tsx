/**
 * The plan (`?view=plan`): the weeks ahead by day and app, from the coverage call. Only days with
 * special days are shown. A gap (a special day with no poster live that day in an app) is marked
 * in orange with its two shortcuts: the posters of that special day and app, and "Many posters"
 * prefilled for that day and app; covered cells stay quiet. On a phone, an agenda: a card per day.
 */
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Paper,
  SegmentedControl,
  Skeleton,
  Stack,
  Table,
  Text,
} from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { Link, useSearchParams } from 'react-router';
import type { CoverageApp, CoverageDay } from '@master-admin/contract';
import { errorText } from '../../lib/api';
import { usePhone } from '../../lib/phone';
import { useGrants } from '../../lib/permissions';
import { useCoverage } from './api';

const WEEKS = ['2', '4', '6', '8', '12'] as const;
const DEFAULT_WEEKS = '6';

/** Today in the browser's calendar, YYYY-MM-DD. */
const today = () => dayjs().format('YYYY-MM-DD');

/** The shortcuts of a day and app: its posters, and an upload prefilled for it. */
export function planLinks(day: CoverageDay, app: CoverageApp) {
  const specialDayId = String(day.specialDays[0]?.id ?? '');
  const filters = new URLSearchParams({ specialDayId, masterAppId: String(app.masterAppId) });
  const upload = new URLSearchParams({
    batch: '1',
    ...Object.fromEntries(filters),
    date: day.date,
  });
  return { posters: `/poster?${filters}`, upload: `/poster?${upload}` };
}

const isGap = (app: CoverageApp) => app.posters === 0;
const dayLabel = (date: string) => dayjs(date).format('ddd D MMM');

export function PlanningView() {
  const [search, setSearch] = useSearchParams();
  const weeks = WEEKS.find((w) => w === search.get('weeks')) ?? DEFAULT_WEEKS;
  const from = today();
  const coverage = useCoverage(from, Number(weeks) * 7);
  const phone = usePhone();
  const days = (coverage.data?.days ?? []).filter((d) => d.specialDays.length > 0);
  const gaps = days.reduce((n, d) => n + d.apps.filter(isGap).length, 0);

  return (
    <Stack gap="md">
      <Group justify="space-between" align="center">
        {phone && (
          <Text size="sm" fw={500} aria-hidden>
            Weeks ahead
          </Text>
        )}
        <SegmentedControl
          aria-label="Weeks ahead"
          value={weeks}
          onChange={(v) =>
            setSearch((prev) => {
              const next = new URLSearchParams(prev);
              next.set('weeks', v);
              return next;
            })
          }
          // On a phone the numbers alone fit the width; the group's label says what they count.
          data={WEEKS.map((w) => ({ value: w, label: phone ? w : `${w} weeks` }))}
        />
        {coverage.data && (
          <Text size="sm" c="dimmed" aria-live="polite">
            {days.length === 0
              ? 'No special days ahead'
              : `${days.length} day${days.length === 1 ? '' : 's'} with special days, ${
                  gaps === 0 ? 'no gaps' : `${gaps} gap${gaps === 1 ? '' : 's'}`
                }`}
          </Text>
        )}
      </Group>
      {coverage.isError ? (
        <Alert color="red" icon={<IconAlertTriangle size={18} />} title="Could not load the plan">
          <Group justify="space-between">
            <Text size="sm">{errorText(coverage.error)}</Text>
            <Button size="xs" variant="light" color="red" onClick={() => void coverage.refetch()}>
              Try again
            </Button>
          </Group>
        </Alert>
      ) : !coverage.data ? (
        <Skeleton h={phone ? 240 : 360} />
      ) : days.length === 0 ? (
        <Text c="dimmed" size="sm">
          No special days in the next {weeks} weeks.
        </Text>
      ) : phone ? (
        <Agenda days={days} />
      ) : (
        <PlanTable days={days} />
      )}
    </Stack>
  );
}

function PlanTable(props: { days: CoverageDay[] }) {
  const apps = props.days[0]?.apps ?? [];
  return (
    <Table.ScrollContainer minWidth={200 + apps.length * 150}>
      <Table withTableBorder withColumnBorders layout="fixed" aria-label="Plan by day and app">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col" w={220}>
              Day
            </Table.Th>
            {apps.map((a) => (
              <Table.Th key={a.masterAppId} scope="col">
                {a.name}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {props.days.map((d) => (
            <Table.Tr key={d.date} data-testid={`plan-${d.date}`}>
              <Table.Th scope="row" fw={400}>
                <Text size="sm" fw={600}>
                  {dayLabel(d.date)}
                </Text>
                <Text size="sm">{d.specialDays.map((s) => s.name).join(', ')}</Text>
              </Table.Th>
              {d.apps.map((a) => (
                <Table.Td
                  key={a.masterAppId}
                  valign="top"
                  bg={isGap(a) ? 'var(--mantine-color-orange-light)' : undefined}
                >
                  <Cell day={d} app={a} />
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function Agenda(props: { days: CoverageDay[] }) {
  return (
    <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
      {props.days.map((d) => (
        <Paper key={d.date} component="li" withBorder p="sm" data-testid={`plan-${d.date}`}>
          <Text size="sm" fw={600}>
            {dayLabel(d.date)}
          </Text>
          <Text size="sm" mb={6}>
            {d.specialDays.map((s) => s.name).join(', ')}
          </Text>
          <Stack gap={6}>
            {d.apps.map((a) => (
              <Group key={a.masterAppId} justify="space-between" wrap="nowrap" align="flex-start">
                <Text size="sm">{a.name}</Text>
                <Cell day={d} app={a} />
              </Group>
            ))}
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}

/** A day and app: quiet counts when covered; a gap, named, with its shortcuts. */
function Cell(props: { day: CoverageDay; app: CoverageApp }) {
  const { day, app } = props;
  const posters = useGrants('poster');
  const links = planLinks(day, app);
  const where = `${day.specialDays.map((s) => s.name).join(', ')} in ${app.name}`;
  const videos = app.videos > 0 ? ` · ${app.videos} video${app.videos === 1 ? '' : 's'}` : '';
  if (!isGap(app)) {
    return (
      <Text size="xs" c="dimmed">
        {app.posters} poster{app.posters === 1 ? '' : 's'}
        {videos}
      </Text>
    );
  }
  return (
    <Stack gap={2} align="flex-start">
      <Badge color="orange" variant="dot" size="sm" tt="none">
        No poster
      </Badge>
      <Group gap="xs">
        {posters.view && (
          <Anchor component={Link} to={links.posters} size="xs" aria-label={`Posters of ${where}`}>
            Posters
          </Anchor>
        )}
        {posters.create && (
          <Anchor
            component={Link}
            to={links.upload}
            size="xs"
            fw={600}
            aria-label={`Upload posters for ${where}`}
          >
            Upload
          </Anchor>
        )}
      </Group>
    </Stack>
  );
}
