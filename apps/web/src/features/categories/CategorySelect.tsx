import { PATHS, categoryOptions } from '@master-admin/contract';
import {
  SearchSelect,
  type OptionPage,
  type SearchSelectProps,
  type SelectOption,
} from '../../components/SearchSelect';
import { STATUS_LABELS } from '../../components/StatusBadge';
import { api } from '../../lib/api';
import { categoryKeys } from './api';

/** Categories by name, a page at a time; one that is not active says so. */
async function loadCategories(keyword: string): Promise<OptionPage> {
  // The picker's own call, open to anyone signed in (the category list needs its menu).
  const page = await api.get(PATHS.categoryOptions, categoryOptions, { keyword });
  return {
    options: page.result.map((c) => ({
      value: String(c.id),
      label: c.status === 'ACTIVE' ? c.name : `${c.name} (${STATUS_LABELS[c.status]})`,
    })),
    more: page.total > page.result.length,
  };
}

/** Picks a category by id, searching by name (filters and forms of the areas that use them). */
export function CategorySelect(props: SearchSelectProps & { known?: SelectOption | undefined }) {
  return (
    <SearchSelect
      label="Category"
      placeholder="All categories"
      nothingFoundMessage="No such category"
      {...props}
      queryKey={[...categoryKeys.all, 'options']}
      load={loadCategories}
    />
  );
}
