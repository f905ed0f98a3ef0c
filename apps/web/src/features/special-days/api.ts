import { useQuery } from '@tanstack/react-query';
import {
  SPECIAL_DAY_SORTS,
  PATHS,
  bulkResponse,
  coverage,
  deleteResponse,
  specialDayList,
  specialDayMutation,
  type Status,
} from '@master-admin/contract';
import { api, type Change } from '../../lib/api';
import { useList } from '../../lib/list';
import { useApiMutation } from '../../lib/mutation';

export const specialDayKeys = { all: ['special-days'] as const };
/** The plan (coverage); posters made or changed elsewhere refresh it too. */
export const planningKeys = { all: ['planning'] as const };
export const SPECIAL_DAY_FILTERS = ['status'] as const;

type SpecialDayFields = { name: string; month: number; day: number };

export function useSpecialDayList() {
  return useList({
    area: 'specialDay',
    queryKey: specialDayKeys.all,
    path: PATHS.specialDayList,
    schema: specialDayList,
    filters: SPECIAL_DAY_FILTERS,
    sorts: SPECIAL_DAY_SORTS,
  });
}

export function useCreateSpecialDay() {
  return useApiMutation({
    mutationFn: (body: SpecialDayFields) =>
      api.post(PATHS.specialDayCreate, specialDayMutation, body),
    invalidates: [specialDayKeys.all, planningKeys.all],
  });
}

/** The edit dialog sends all three fields, so the server checks the pair as given. */
export function useUpdateSpecialDay() {
  return useApiMutation({
    mutationFn: ({ id, ifMatch, ...body }: SpecialDayFields & { id: number } & Change) =>
      api.patch(PATHS.specialDay(id), specialDayMutation, body, { ifMatch }),
    invalidates: [specialDayKeys.all, planningKeys.all],
  });
}

export function useChangeSpecialDayStatus() {
  return useApiMutation({
    mutationFn: ({ id, ifMatch, status }: { id: number; status: Status } & Change) =>
      api.put(PATHS.specialDayStatus(id), specialDayMutation, { status }, { ifMatch }),
    invalidates: [specialDayKeys.all, planningKeys.all],
  });
}

/** Moves a special day to the trash (409 while posters are made for it); its toast offers Undo. */
export function useDeleteSpecialDay() {
  return useApiMutation({
    mutationFn: ({ id, ifMatch }: { id: number } & Change) =>
      api.delete(PATHS.specialDayRemove(id), deleteResponse, { ifMatch }),
    trash: 'specialDays',
    invalidates: [specialDayKeys.all, planningKeys.all],
  });
}

/** Sets the year of every special day (the server moves 29 February to a leap year). */
export function useSetSpecialDayYear() {
  return useApiMutation({
    mutationFn: (year: number) => api.put(PATHS.specialDayYear(year), bulkResponse),
    invalidates: [specialDayKeys.all, planningKeys.all],
  });
}

/** `GET planning/coverage`: the `days` days from `from` (YYYY-MM-DD), per day and app. */
export function useCoverage(from: string, days: number) {
  return useQuery({
    queryKey: [...planningKeys.all, 'coverage', from, days],
    queryFn: () => api.get(PATHS.planningCoverage, coverage, { from, days }),
  });
}
