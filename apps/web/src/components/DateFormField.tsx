import '@mantine/dates/styles.css';
import { DatePickerInput } from '@mantine/dates';
import { DATE_MAX, DATE_MIN } from '@master-admin/contract';
import { FormController } from './FormFields';

/**
 * A calendar date (YYYY-MM-DD) bound to the surrounding dialog's form; cleared, it holds '' (no
 * date). It offers only the days the API takes. Its own module, so only the screens with a date
 * load the date picker.
 */
export function DateFormField(props: { name: string; label: string; description?: string }) {
  return (
    <FormController
      name={props.name}
      label={props.label}
      render={({ field, fieldState, label }) => (
        <DatePickerInput
          label={label}
          description={props.description ?? 'Leave empty for no date.'}
          placeholder="Pick a date"
          clearable
          clearButtonProps={{ 'aria-label': 'Clear the date' }}
          valueFormat="D MMM YYYY"
          minDate={DATE_MIN}
          maxDate={DATE_MAX}
          maw={280}
          value={typeof field.value === 'string' && field.value ? field.value : null}
          onChange={(v) => field.onChange(v ?? '')}
          onBlur={field.onBlur}
          error={fieldState.error?.message}
          popoverProps={{ withinPortal: true }}
        />
      )}
    />
  );
}
