import { PATHS, specialDayOptions } from '@master-admin/contract';
import {
  SearchSelect,
  type OptionPage,
  type SearchSelectProps,
  type SelectOption,
} from '../../components/SearchSelect';
import { STATUS_LABELS } from '../../components/StatusBadge';
import { api } from '../../lib/api';
import { formatDayMonth } from '../../lib/format';
import { specialDayKeys } from './api';

/** "Diwali (12 Nov)": a special day's name and when it falls. */
export function specialDayLabel(d: { name: string; day: number; month: number }): string {
  return `${d.name} (${formatDayMonth(d)})`;
}

/** Special days by name, a page at a time; one that is not active says so. */
async function loadSpecialDays(keyword: string): Promise<OptionPage> {
  // The picker's own call, open to anyone signed in (the special-day list needs its menu).
  const page = await api.get(PATHS.specialDayOptions, specialDayOptions, { keyword });
  return {
    options: page.result.map((d) => ({
      value: String(d.id),
      label:
        d.status === 'ACTIVE'
          ? specialDayLabel(d)
          : `${specialDayLabel(d)} – ${STATUS_LABELS[d.status]}`,
    })),
    more: page.total > page.result.length,
  };
}

/** Picks a special day by id, searching by name. */
export function SpecialDaySelect(props: SearchSelectProps & { known?: SelectOption | undefined }) {
  return (
    <SearchSelect
      label="Special day"
      placeholder="All special days"
      nothingFoundMessage="No such special day"
      {...props}
      queryKey={[...specialDayKeys.all, 'options']}
      load={loadSpecialDays}
    />
  );
}
