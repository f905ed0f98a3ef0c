import { useState } from 'react';
import { Button, Group, NumberInput, Select, Text, TextInput } from '@mantine/core';
import { IconCalendarEvent, IconPlus } from '@tabler/icons-react';
import { Controller, useFormContext, useWatch } from 'react-hook-form';
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
import { PageHeader } from '../../components/PageHeader';
import { RowActions } from '../../components/RowActions';
import { SearchInput } from '../../components/SearchInput';
import { STATUS_OPTIONS, statusColumn } from '../../components/StatusBadge';
import { StatusDialog } from '../../components/StatusDialog';
import { formatDateTime, formatDayMonth } from '../../lib/format';
import { useGrants } from '../../lib/permissions';
import {
  useChangeSpecialDayStatus,
  useCreateSpecialDay,
  useSetSpecialDayYear,
  useSpecialDayList,
  useUpdateSpecialDay,
} from './api';

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
  { kind: 'create' | 'year' } | { kind: 'edit' | 'status'; specialDay: SpecialDay } | null;

export default function SpecialDaysPage() {
  const list = useSpecialDayList();
  const create = useCreateSpecialDay();
  const update = useUpdateSpecialDay();
  const changeStatus = useChangeSpecialDayStatus();
  const setYear = useSetSpecialDayYear();
  const grants = useGrants('specialDay');
  const [dialog, setDialog] = useState<Dialog>(null);
  const openCreate = () => setDialog({ kind: 'create' });
  const close = () => setDialog(null);
  const { filters, setFilter } = list.params;
  const selected = dialog && 'specialDay' in dialog ? dialog.specialDay : undefined;
  const editing = dialog?.kind === 'edit' ? dialog.specialDay : undefined;

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
        ? (d, status) => changeStatus.mutate({ id: d.id, status })
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
      <Group mb="md" align="flex-end" wrap="wrap">
        <SearchInput
          label="Search special days"
          placeholder="Search by name"
          value={list.params.keyword}
          onChange={list.params.setKeyword}
        />
        <FilterSelect
          label="Status"
          data={STATUS_OPTIONS}
          value={filters.status}
          onChange={(v) => setFilter('status', v)}
        />
      </Group>
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
            ? { label: 'Add the first special day', onClick: openCreate }
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
                onClick: () => setDialog({ kind: 'edit', specialDay: d }),
              },
              {
                label: 'Change status',
                allowed: grants.update,
                onClick: () => setDialog({ kind: 'status', specialDay: d }),
              },
            ]}
          />
        )}
      />

      <FormDialog
        opened={dialog?.kind === 'create' || dialog?.kind === 'edit'}
        onClose={close}
        title={editing ? `Edit ${editing.name}` : 'New special day'}
        schema={dayForm}
        defaultValues={dayDefaults}
        submitLabel={editing ? 'Save' : 'Create'}
        onSubmit={(values) =>
          editing ? update.mutateAsync({ id: editing.id, ...values }) : create.mutateAsync(values)
        }
      >
        {() => <DayFields />}
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
            <Controller
              control={form.control}
              name="year"
              render={({ field, fieldState }) => (
                <NumberInput
                  label="Year"
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
        onSubmit={(status) => changeStatus.mutateAsync({ id: selected!.id, status })}
      />
    </>
  );
}

/** Name, month and day; the day's placeholder follows the chosen month. */
function DayFields() {
  const form = useFormContext<DayFormInput>();
  const month = useWatch({ control: form.control, name: 'month' });
  const last = month ? daysInMonth(Number(month)) : 31;
  return (
    <>
      <TextInput
        label="Name"
        required
        data-autofocus
        maxLength={SPECIAL_DAY_NAME_MAX}
        {...form.register('name')}
        error={form.formState.errors.name?.message}
      />
      <Group grow align="flex-start">
        <Controller
          control={form.control}
          name="month"
          // A new month re-checks the day against it.
          rules={{ deps: ['day'] }}
          render={({ field, fieldState }) => (
            <Select
              label="Month"
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
        <Controller
          control={form.control}
          name="day"
          render={({ field, fieldState }) => (
            <NumberInput
              label="Day"
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
