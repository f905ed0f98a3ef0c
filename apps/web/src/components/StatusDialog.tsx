import { Select } from '@mantine/core';
import { Controller } from 'react-hook-form';
import { statusBody, type Status } from '@master-admin/contract';
import { FormDialog } from './FormDialog';
import { STATUS_OPTIONS } from './StatusBadge';

/** The status dialog every area with a status uses. */
export function StatusDialog(props: {
  opened: boolean;
  onClose: () => void;
  /** What the status belongs to, for the title. */
  subject: string;
  current: Status | undefined;
  onSubmit: (status: Status) => Promise<unknown>;
}) {
  return (
    <FormDialog
      opened={props.opened}
      onClose={props.onClose}
      title={`Status of ${props.subject}`}
      schema={statusBody}
      defaultValues={{ status: props.current ?? 'ACTIVE' }}
      submitLabel="Save"
      onSubmit={(values) => props.onSubmit(values.status)}
    >
      {(form) => (
        <Controller
          control={form.control}
          name="status"
          render={({ field, fieldState }) => (
            <Select
              label="Status"
              data={STATUS_OPTIONS}
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
