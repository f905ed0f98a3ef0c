import { Select } from '@mantine/core';

/** A list filter: one value of a fixed set, or all. The empty string means "all". */
export function FilterSelect(props: {
  label: string;
  data: readonly string[] | { value: string; label: string }[];
  value: string;
  onChange: (value: string) => void;
  w?: number;
}) {
  return (
    <Select
      label={props.label}
      placeholder="All"
      clearable
      data={props.data as string[]}
      value={props.value || null}
      onChange={(v) => props.onChange(v ?? '')}
      w={props.w ?? 160}
    />
  );
}
