/**
 * The dashboard's period inputs, loaded only when a period other than "All time" is chosen: the
 * date picker and the number input (with their styles) stay out of the dashboard's first load.
 */
import '@mantine/dates/styles.css';
import { NumberInput } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { DATE_MAX, DATE_MIN } from '@master-admin/contract';

export function DaysField(props: { value: string; onChange: (days: string | undefined) => void }) {
  return (
    <NumberInput
      label="Days"
      min={1}
      max={3650}
      w={140}
      allowDecimal={false}
      allowNegative={false}
      clampBehavior="strict"
      value={props.value ? Number(props.value) : ''}
      onChange={(v) => props.onChange(typeof v === 'number' && v >= 1 ? String(v) : undefined)}
    />
  );
}

export function RangeField(props: {
  from: string;
  to: string;
  onChange: (range: { fromDate: string | undefined; toDate: string | undefined }) => void;
}) {
  return (
    <DatePickerInput
      type="range"
      label="Created between"
      placeholder="Pick the first and last day"
      clearable
      allowSingleDateInRange
      valueFormat="D MMM YYYY"
      minDate={DATE_MIN}
      maxDate={DATE_MAX}
      w={280}
      value={[props.from || null, props.to || null]}
      onChange={([from, to]) => {
        if (from && !to) return;
        props.onChange({ fromDate: from ?? undefined, toDate: to ?? undefined });
      }}
    />
  );
}
