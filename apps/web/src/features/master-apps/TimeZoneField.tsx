import { useMemo } from 'react';
import { Select } from '@mantine/core';
import { timeZoneNames } from '@master-admin/contract';
import { FormController } from '../../components/FormFields';

/**
 * A master app's time zone: a searchable choice of every IANA zone the browser knows; cleared, the
 * app follows the server's DEFAULT_TIME_ZONE.
 */
export function TimeZoneFormField() {
  const zones = useMemo(() => timeZoneNames(), []);
  return (
    <FormController
      name="timeZone"
      label="Time zone"
      render={({ field, fieldState, label }) => (
        <Select
          label={label}
          description="Its special days, poster dates and schedules are read in this zone. Empty: the server’s default."
          placeholder="Server default"
          searchable
          clearable
          limit={50}
          nothingFoundMessage="No such zone"
          data={zones}
          value={typeof field.value === 'string' && field.value ? field.value : null}
          onChange={(v) => field.onChange(v ?? '')}
          onBlur={field.onBlur}
          error={fieldState.error?.message}
          comboboxProps={{ withinPortal: true }}
        />
      )}
    />
  );
}
