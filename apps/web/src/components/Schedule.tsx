/**
 * Schedules (API.md, "Planning festivals"), the same on posters, videos and banners: the two
 * optional fields "Live from" / "Live until", entered as wall-clock times in the row's app's time
 * zone (named beside them) and sent as instants; the badge a list shows; its `live` filter; and
 * the dialog that changes a row's window.
 */
import { Badge, SimpleGrid, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { useFormContext } from 'react-hook-form';
import { z } from 'zod';
import {
  LIVE_UNTIL_MESSAGE,
  instantToZoned,
  liveStateOf,
  zonedToInstant,
  type LiveState,
  type Status,
} from '@master-admin/contract';
import { FormDialog } from './FormDialog';
import { FormController } from './FormFields';
import { useMasterAppOptions } from './MasterAppSelect';
import { defined } from '../lib/defined';
import { formatDateTime } from '../lib/format';
import type { PresenceTarget } from './LiveFormNotice';

/** The zone new schedules are entered in when the app's is not known (yet). */
const FALLBACK_ZONE = 'UTC';

/** A datetime-local input's value (YYYY-MM-DDTHH:MM), or '' for an open end. */
const localDateTime = z.union([
  z.literal(''),
  z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2})?$/, {
    error: 'Pick a date and a time, or leave it empty',
  }),
]);

/** The form's two fields (wall-clock times in one zone, so compared as text). */
export const scheduleFormShape = { liveFrom: localDateTime, liveUntil: localDateTime };

/** `liveUntil` after `liveFrom`, as the server checks it (the same message). */
export function checkLocalWindow(
  v: { liveFrom?: string | undefined; liveUntil?: string | undefined },
  ctx: z.RefinementCtx,
) {
  if (v.liveFrom && v.liveUntil && v.liveUntil <= v.liveFrom) {
    ctx.addIssue({ code: 'custom', path: ['liveUntil'], message: LIVE_UNTIL_MESSAGE });
  }
}

export const scheduleForm = z.object(scheduleFormShape).superRefine(checkLocalWindow);

/** The form's values as the API takes them: instants with their offset; undefined when open. */
export function windowToSend(
  values: { liveFrom?: string | undefined; liveUntil?: string | undefined },
  zone: string,
): { liveFrom: string | undefined; liveUntil: string | undefined } {
  return {
    liveFrom: values.liveFrom ? zonedToInstant(values.liveFrom, zone) : undefined,
    liveUntil: values.liveUntil ? zonedToInstant(values.liveUntil, zone) : undefined,
  };
}

/** A row's window as the form shows it, in `zone`. */
export function windowToForm(
  row: { liveFrom: string | null; liveUntil: string | null } | undefined,
  zone: string,
) {
  return {
    liveFrom: row?.liveFrom ? instantToZoned(row.liveFrom, zone) : '',
    liveUntil: row?.liveUntil ? instantToZoned(row.liveUntil, zone) : '',
  };
}

/**
 * The time zone a schedule is entered in: master app `id`'s (its own or the server's default,
 * from the app choices); with no id (a create for every app at once), the zone all apps share, or
 * UTC when they differ (one window is sent for all their rows).
 */
export function useTimeZoneOf(): (id: number | string | undefined) => string {
  const apps = useMasterAppOptions().data?.result ?? [];
  return (id) => {
    if (id === undefined || id === '') {
      const zones = new Set(apps.map((a) => a.timeZone));
      const [only] = zones;
      return zones.size === 1 && only !== undefined ? only : FALLBACK_ZONE;
    }
    return apps.find((a) => String(a.id) === String(id))?.timeZone ?? FALLBACK_ZONE;
  };
}

/** The zone of master app `id` (see useTimeZoneOf). */
export function useAppTimeZone(id: number | string | undefined): string {
  return useTimeZoneOf()(id);
}

/** "Live from" and "Live until", bound to the dialog's form, entered in `zone`. */
export function ScheduleFields(props: { zone: string; subject?: string }) {
  const { control } = useFormContext<{ liveFrom: string; liveUntil: string }>();
  const fields = [
    ['liveFrom', 'Live from', 'Empty: live from now on.'],
    ['liveUntil', 'Live until', 'Empty: no end.'],
  ] as const;
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500}>
        Schedule
      </Text>
      <Text size="xs" c="dimmed">
        Times in {props.zone} (the app’s time zone). The {props.subject ?? 'row'} is live while it
        is active and inside this window.
      </Text>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
        {fields.map(([name, label, hint]) => (
          <FormController
            key={name}
            control={control}
            name={name}
            label={label}
            render={({ field, fieldState }) => (
              <TextInput
                type="datetime-local"
                label={label}
                description={`${hint} ${props.zone}`}
                value={field.value ?? ''}
                onChange={(e) => field.onChange(e.currentTarget.value)}
                onBlur={field.onBlur}
                error={fieldState.error?.message}
              />
            )}
          />
        ))}
      </SimpleGrid>
    </Stack>
  );
}

/** What a person reads for each `live` filter value. */
export const LIVE_OPTIONS: { value: LiveState; label: string }[] = [
  { value: 'now', label: 'Live now' },
  { value: 'scheduled', label: 'Scheduled' },
  { value: 'expired', label: 'Expired' },
];

const BADGES = {
  live: { label: 'Live', color: 'teal' },
  scheduled: { label: 'Scheduled', color: 'blue' },
  expired: { label: 'Expired', color: 'gray' },
  off: { label: 'Not live', color: 'gray' },
} as const;

/** A row's place in its schedule (Live / Scheduled / Expired / Not live), its window on hover. */
export function LiveBadge(props: {
  row: { status: Status; liveFrom: string | null; liveUntil: string | null };
}) {
  const { row } = props;
  const state = liveStateOf(row);
  const badge = BADGES[state];
  const window =
    row.liveFrom === null && row.liveUntil === null
      ? 'No schedule'
      : `${row.liveFrom ? formatDateTime(row.liveFrom) : 'Any time'} – ${
          row.liveUntil ? formatDateTime(row.liveUntil) : 'no end'
        }`;
  return (
    <Tooltip label={window}>
      <Badge color={badge.color} variant="dot" tt="none" aria-label={`${badge.label}: ${window}`}>
        {badge.label}
      </Badge>
    </Tooltip>
  );
}

/** "Schedule of poster #12": the row's window, changed as a whole. */
export function ScheduleDialog(props: {
  opened: boolean;
  onClose: () => void;
  subject: string;
  row: { liveFrom: string | null; liveUntil: string | null; version: number } | undefined;
  zone: string;
  presence?: PresenceTarget | undefined;
  onSubmit: (
    window: { liveFrom: string | null; liveUntil: string | null },
    ifMatch: number | undefined,
  ) => Promise<unknown>;
}) {
  return (
    <FormDialog
      opened={props.opened}
      onClose={props.onClose}
      presence={props.presence}
      title={`Schedule of ${props.subject}`}
      schema={scheduleForm}
      defaultValues={windowToForm(props.row, props.zone)}
      submitLabel="Save"
      version={props.row?.version}
      onSubmit={(v, { ifMatch }) => {
        const sent = windowToSend(v, props.zone);
        return props.onSubmit(
          { liveFrom: sent.liveFrom ?? null, liveUntil: sent.liveUntil ?? null },
          ifMatch,
        );
      }}
    >
      {() => <ScheduleFields zone={props.zone} />}
    </FormDialog>
  );
}

/**
 * Under a scheduled row's status (a list's `statusColumn({ below })`): its place in its window
 * (Live / Scheduled / Expired / Not live). A row without a window shows nothing: its status says it.
 */
export function scheduleBelowStatus(row: {
  status: Status;
  liveFrom: string | null;
  liveUntil: string | null;
}) {
  return row.liveFrom === null && row.liveUntil === null ? null : <LiveBadge row={row} />;
}

/** The row's window in its app's zone, changed from a row action (the area's schedule call). */
export function RowScheduleDialog<
  Row extends {
    id: number;
    version: number;
    masterAppId?: number;
    masterApp: { id: number };
    liveFrom: string | null;
    liveUntil: string | null;
  },
>(props: {
  row: Row | undefined;
  opened: boolean;
  onClose: () => void;
  subject: string;
  area: PresenceTarget['area'];
  change: (
    args: { id: number; ifMatch: number | undefined } & {
      liveFrom: string | null;
      liveUntil: string | null;
    },
  ) => Promise<unknown>;
}) {
  const zone = useAppTimeZone(props.row?.masterApp.id);
  const { row } = props;
  return (
    <ScheduleDialog
      opened={props.opened}
      onClose={props.onClose}
      subject={props.subject}
      row={row}
      zone={zone}
      presence={row ? { area: props.area, id: row.id, label: props.subject } : undefined}
      onSubmit={(window, ifMatch) => props.change({ id: defined(row).id, ifMatch, ...window })}
    />
  );
}
