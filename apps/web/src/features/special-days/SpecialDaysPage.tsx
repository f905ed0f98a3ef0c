import { useState } from 'react';
import { Button, Group, NumberInput, SegmentedControl, Select, Text } from '@mantine/core';
import { IconCalendarEvent, IconPlus } from '@tabler/icons-react';
import { useFormContext, useWatch } from 'react-hook-form';
import { useSearchParams } from 'react-router';
import { z } from 'zod';
import {
  SPECIAL_DAY_NAME_MAX,
  MONTH_NAMES,
  SPECIAL_DAY_YEAR_MAX,
  SPECIAL_DAY_YEAR_MIN,
  daysInMonth,
  int,
  specialDayCreateBody,
  text,
  type SpecialDay,
} from '@master-admin/contract';
import { DataTable, type Column } from '../../components/DataTable';
import { FilterSelect } from '../../components/FilterSelect';
import { FormDialog } from '../../components/FormDialog';
import { FormController, TextFormField } from '../../components/FormFields';
import { PageHeader } from '../../components/PageHeader';
import { RowActions } from '../../components/RowActions';
import { confirmDelete } from '../../components/confirm';
import { ListToolbar } from '../../components/ListToolbar';
import { STATUS_OPTIONS, statusColumn } from '../../components/StatusBadge';
import { StatusDialog } from '../../components/StatusDialog';
import { formatDateTime, formatDayMonth } from '../../lib/format';
import { useGrants } from '../../lib/permissions';
import {
  useChangeSpecialDayStatus,
  useCreateSpecialDay,
  useDeleteSpecialDay,
  useSetSpecialDayYear,
  useSpecialDayList,
  useUpdateSpecialDay,
} from './api';
import { SpecialDayCalendar, type CalendarDay } from './SpecialDayCalendar';
import { PlanningView } from './PlanningView';
import { defined } from '../../lib/defined';

const MONTH_OPTIONS = MONTH_NAMES.map((label, i) => ({ value: String(i + 1), label }));

/**
 * Each field on its own first (with messages a form reads well), then the contract's schema, whose
 * check that the day exists in the month (29 February allowed) refuses "30 February" here, before
 * anything is sent.
 */
const dayForm = z
  .object({
    name: text(SPECIAL_DAY_NAME_MAX),
    month: z.string({ error: 'Choose a month' }).min(1, { error: 'Choose a month' }),
    day: z.number({ error: 'Enter a day' }),
  })
  .transform((values, ctx) => {
    const parsed = specialDayCreateBody.safeParse(values);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) {
      ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
    }
    return z.NEVER;
  });
type DayFormInput = z.input<typeof dayForm>;

const yearForm = z.object({ year: int(SPECIAL_DAY_YEAR_MIN, SPECIAL_DAY_YEAR_MAX) });

type Dialog =
  | { kind: 'create' | 'year' }
  | { kind: 'edit' | 'status'; specialDay: SpecialDay }
  | { kind: 'move'; specialDay: CalendarDay }
  | null;

type Actions = {
  edit: (d: SpecialDay) => void;
  status: (d: SpecialDay) => void;
  create: () => void;
};

/**
 * The list, the month calendar (`?view=calendar`) or the plan of the weeks ahead (`?view=plan`),
 * with the same dialogs.
 */
export default function SpecialDaysPage() {
  const [search, setSearch] = useSearchParams();
  const asked = search.get('view');
  const view = asked === 'calendar' || asked === 'plan' ? asked : 'list';
  const create = useCreateSpecialDay();
  const update = useUpdateSpecialDay();
  const changeStatus = useChangeSpecialDayStatus();
  const setYear = useSetSpecialDayYear();
  const grants = useGrants('specialDay');
  const [dialog, setDialog] = useState<Dialog>(null);
  const openCreate = () => setDialog({ kind: 'create' });
  const close = () => setDialog(null);
  const selected = dialog?.kind === 'status' ? dialog.specialDay : undefined;
  const moving = dialog?.kind === 'move';
  const editing = dialog?.kind === 'edit' || moving ? dialog.specialDay : undefined;
  // Each view keeps its own parameters: switching starts the other afresh.
  const showView = (next: string) => setSearch(next === 'list' ? {} : { view: next });
  const actions: Actions = {
    edit: (d) => setDialog({ kind: 'edit', specialDay: d }),
    status: (d) => setDialog({ kind: 'status', specialDay: d }),
    create: openCreate,
  };

  const dayDefaults: Partial<DayFormInput> = editing
    ? { name: editing.name, month: String(editing.month), day: editing.day }
    : { name: '', month: '' };

  return (
    <>
      <PageHeader
        title="Special Days"
        description="The calendar of days posters are made for, in date order."
        actions={
          <>
            {grants.update && (
              <Button
                variant="default"
                leftSection={<IconCalendarEvent size={18} />}
                onClick={() => setDialog({ kind: 'year' })}
              >
                Set year
              </Button>
            )}
            {grants.create && (
              <Button leftSection={<IconPlus size={18} />} onClick={openCreate}>
                New special day
              </Button>
            )}
          </>
        }
      />
      <SegmentedControl
        mb="md"
        aria-label="View"
        value={view}
        onChange={showView}
        data={[
          { value: 'list', label: 'List' },
          { value: 'calendar', label: 'Calendar' },
          { value: 'plan', label: 'Plan' },
        ]}
      />
      {view === 'plan' ? (
        <PlanningView />
      ) : view === 'calendar' ? (
        <SpecialDayCalendar
          onMove={grants.update ? (d) => setDialog({ kind: 'move', specialDay: d }) : undefined}
          onDrop={
            grants.update
              ? (d, to) =>
                  update.mutate({
                    id: d.id,
                    name: d.name,
                    month: to.month,
                    day: to.day,
                  })
              : undefined
          }
        />
      ) : (
        <SpecialDayListView actions={actions} />
      )}

      <FormDialog
        opened={dialog?.kind === 'create' || dialog?.kind === 'edit' || moving}
        onClose={close}
        presence={editing ? { area: 'specialDay', id: editing.id, label: editing.name } : undefined}
        title={editing ? `${moving ? 'Move' : 'Edit'} ${editing.name}` : 'New special day'}
        schema={dayForm}
        defaultValues={dayDefaults}
        submitLabel={moving ? 'Move' : editing ? 'Save' : 'Create'}
        version={editing && 'version' in editing ? editing.version : undefined}
        onSubmit={(values, { ifMatch }) =>
          editing
            ? update.mutateAsync({ id: editing.id, ifMatch, ...values })
            : create.mutateAsync(values)
        }
      >
        {() => <DayFields withName={!moving} />}
      </FormDialog>

      <FormDialog
        opened={dialog?.kind === 'year'}
        onClose={close}
        title="Set the year of every special day"
        schema={yearForm}
        defaultValues={{ year: new Date().getFullYear() }}
        submitLabel="Set year"
        onSubmit={(values) => setYear.mutateAsync(values.year)}
      >
        {(form) => (
          <>
            <Text size="sm" c="dimmed">
              Every special day, whatever its status, gets this year; 29&nbsp;February gets the next
              leap year when this year has none.
            </Text>
            <FormController
              control={form.control}
              name="year"
              label="Year"
              render={({ field, fieldState, label }) => (
                <NumberInput
                  label={label}
                  required
                  data-autofocus
                  min={SPECIAL_DAY_YEAR_MIN}
                  max={SPECIAL_DAY_YEAR_MAX}
                  clampBehavior="none"
                  allowDecimal={false}
                  allowNegative={false}
                  thousandSeparator={false}
                  value={field.value as number | string}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                  error={fieldState.error?.message}
                />
              )}
            />
          </>
        )}
      </FormDialog>

      <StatusDialog
        opened={dialog?.kind === 'status'}
        onClose={close}
        subject={selected?.name ?? ''}
        current={selected?.status}
        version={selected?.version}
        onSubmit={(status, ifMatch) =>
          changeStatus.mutateAsync({ id: defined(selected).id, status, ifMatch })
        }
      />
    </>
  );
}

function SpecialDayListView(props: { actions: Actions }) {
  const list = useSpecialDayList();
  const changeStatus = useChangeSpecialDayStatus();
  const remove = useDeleteSpecialDay();
  const grants = useGrants('specialDay');
  const { filters, setFilter } = list.params;

  const columns: Column<SpecialDay>[] = [
    {
      key: 'name',
      header: 'Name',
      sort: 'name',
      card: 'title',
      render: (d) => (
        <Text fw={500} size="sm">
          {d.name}
        </Text>
      ),
    },
    {
      key: 'date',
      header: 'Date',
      width: 140,
      render: (d) => <Text size="sm">{formatDayMonth(d)}</Text>,
    },
    statusColumn({
      subject: (d) => d.name,
      sortable: false,
      onChange: grants.update
        ? (d, status) => changeStatus.mutate({ id: d.id, status, ifMatch: d.version })
        : undefined,
    }),
    {
      key: 'createdAt',
      header: 'Created',
      width: 170,
      sort: 'createdAt',
      render: (d) => formatDateTime(d.createdAt),
    },
  ];

  return (
    <>
      <ListToolbar
        search={{
          label: 'Search special days',
          placeholder: 'Search by name',
          params: list.params,
        }}
      >
        <FilterSelect
          label="Status"
          data={STATUS_OPTIONS}
          value={filters.status}
          onChange={(v) => setFilter('status', v)}
        />
      </ListToolbar>
      <DataTable
        label="Special days"
        columns={columns}
        rows={list.rows}
        total={list.total}
        rowKey={(d) => d.id}
        params={list.params}
        query={list.query}
        rowName={(d) => d.name}
        empty={{
          title: 'No special days yet',
          description:
            'Special days are the festivals and occasions posters are made for, each on its day of the year.',
          action: grants.create
            ? { label: 'Add the first special day', onClick: props.actions.create }
            : undefined,
        }}
        actions={(d) => (
          <RowActions
            history={{ area: 'specialDays', id: d.id }}
            label={d.name}
            actions={[
              {
                label: 'Edit',
                allowed: grants.update,
                onClick: () => props.actions.edit(d),
              },
              {
                label: 'Change status',
                allowed: grants.update,
                onClick: () => props.actions.status(d),
              },
              {
                label: 'Delete',
                danger: true,
                allowed: grants.delete,
                onClick: () =>
                  confirmDelete({
                    title: 'Delete this special day?',
                    message: `“${d.name}” (${formatDayMonth(d)}) will be deleted. A special day posters are made for cannot be deleted.`,
                    onConfirm: () => remove.mutate({ id: d.id, ifMatch: d.version }),
                  }),
              },
            ]}
          />
        )}
      />
    </>
  );
}

/** Name (unless moving), month and day; the day's placeholder follows the chosen month. */
function DayFields(props: { withName: boolean }) {
  const form = useFormContext<DayFormInput>();
  const month = useWatch({ control: form.control, name: 'month' });
  const last = month ? daysInMonth(Number(month)) : 31;
  return (
    <>
      {props.withName && <TextFormField name="name" label="Name" required data-autofocus />}
      <Group grow align="flex-start">
        <FormController
          control={form.control}
          name="month"
          label="Month"
          // A new month re-checks the day against it.
          rules={{ deps: ['day'] }}
          render={({ field, fieldState, label }) => (
            <Select
              label={label}
              required
              placeholder="Choose"
              data={MONTH_OPTIONS}
              allowDeselect={false}
              value={field.value || null}
              onChange={(v) => field.onChange(v ?? '')}
              onBlur={field.onBlur}
              error={fieldState.error?.message}
              comboboxProps={{ withinPortal: true }}
            />
          )}
        />
        <FormController
          control={form.control}
          name="day"
          label="Day"
          render={({ field, fieldState, label }) => (
            <NumberInput
              label={label}
              required
              placeholder={`1–${last}`}
              min={1}
              max={31}
              clampBehavior="none"
              allowDecimal={false}
              allowNegative={false}
              value={field.value ?? ''}
              onChange={field.onChange}
              onBlur={field.onBlur}
              error={fieldState.error?.message}
            />
          )}
        />
      </Group>
    </>
  );
}
