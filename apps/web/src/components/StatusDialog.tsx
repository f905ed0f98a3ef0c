import { useMemo } from 'react';
import { Select } from '@mantine/core';
import { z } from 'zod';
import { statusBody, type Status } from '@master-admin/contract';
import { FormDialog } from './FormDialog';
import { FormController } from './FormFields';
import { STATUS_OPTIONS } from './StatusBadge';

/** The status dialog every area with a status uses. */
export function StatusDialog(props: {
  opened: boolean;
  onClose: () => void;
  /** What the status belongs to, for the title. */
  subject: string;
  current: Status | undefined;
  /** The statuses offered, when not all (a bulk change of users leaves DELETED out). */
  choices?: readonly Status[] | undefined;
  /**
   * Sends the status; `ifMatch` is the row's version as the dialog was opened (undefined for a
   * bulk change): a row changed since shows what differs instead of being overwritten.
   */
  onSubmit: (status: Status, ifMatch: number | undefined) => Promise<unknown>;
  /** The row's version, when the dialog changes one row. */
  version?: number | undefined;
}) {
  const { choices } = props;
  const schema = useMemo(
    () =>
      choices
        ? z.strictObject({
            status: z.enum(choices as [Status, ...Status[]], {
              error: `Must be one of ${choices.join(', ')}`,
            }),
          })
        : statusBody,
    [choices],
  );
  const options = choices
    ? STATUS_OPTIONS.filter((o) => choices.includes(o.value))
    : STATUS_OPTIONS;
  return (
    <FormDialog
      opened={props.opened}
      onClose={props.onClose}
      title={`Status of ${props.subject}`}
      schema={schema}
      defaultValues={{ status: props.current ?? 'ACTIVE' }}
      submitLabel="Save"
      version={props.version}
      onSubmit={(values, { ifMatch }) => props.onSubmit(values.status, ifMatch)}
    >
      {(form) => (
        <FormController
          control={form.control}
          name="status"
          label="Status"
          render={({ field, fieldState, label }) => (
            <Select
              label={label}
              data={options}
              allowDeselect={false}
              value={field.value}
              onChange={(v) => field.onChange(v)}
              onBlur={field.onBlur}
              error={fieldState.error?.message}
              comboboxProps={{ withinPortal: true }}
            />
          )}
        />
      )}
    </FormDialog>
  );
}
