import {
  PATHS,
  POSTER_SORTS,
  bulkResponse,
  deleteResponse,
  posterList,
  posterMutation,
  type Side,
  type Status,
} from '@master-admin/contract';
import { api, type Change } from '../../lib/api';
import { useBulkMutation } from '../../lib/bulk';
import { useList } from '../../lib/list';
import { useApiMutation } from '../../lib/mutation';

export const posterKeys = { all: ['posters'] as const };
export const POSTER_FILTERS = [
  'status',
  'categoryId',
  'specialDayId',
  'masterAppId',
  'live',
] as const;

export function usePosterList() {
  return useList({
    area: 'poster',
    queryKey: posterKeys.all,
    path: PATHS.posterList,
    schema: posterList,
    filters: POSTER_FILTERS,
    sorts: POSTER_SORTS,
  });
}

type Progress = { onProgress?: (percent: number) => void };

export type DefNums = { topDefNum: number; selfDefNum: number; bottomDefNum: number };

export type PosterCreateValues = DefNums & {
  categoryId: number;
  /** One app; undefined for every app (one row per master app). */
  masterAppId?: number | undefined;
  specialDayId?: number | undefined;
  /** YYYY-MM-DD, or undefined for none. */
  date?: string | undefined;
  position: Side;
  file: File;
  thumbFile?: File | undefined;
  /** The schedule's ends (instants with their offset), or undefined for open. */
  liveFrom?: string | undefined;
  liveUntil?: string | undefined;
};

/** A row's whole window: instants, or null for an open end. */
export type ScheduleChange = { liveFrom: string | null; liveUntil: string | null };

export function useChangePosterSchedule() {
  return useApiMutation({
    mutationFn: ({ id, ifMatch, ...window }: ScheduleChange & { id: number } & Change) =>
      api.put(PATHS.posterSchedule(id), posterMutation, window, { ifMatch }),
    invalidates: [posterKeys.all],
  });
}

/**
 * Creates a poster (multipart): for every app (`POST poster/{categoryId}`, answering the new ids)
 * or for one (`POST poster/only-cat/{categoryId}` with `masterAppId`, answering the row). Each call
 * carries its own Idempotency-Key (lib/api.ts), kept for a retry when its outcome is unknown.
 */
export function createPoster({
  categoryId,
  masterAppId,
  onProgress,
  ...fields
}: PosterCreateValues & Progress): Promise<{ message: string }> {
  return masterAppId === undefined
    ? api.upload('POST', PATHS.posterCreateAll(categoryId), bulkResponse, fields, onProgress)
    : api.upload(
        'POST',
        PATHS.posterCreateOne(categoryId),
        posterMutation,
        { ...fields, masterAppId },
        onProgress,
      );
}

export function useCreatePoster() {
  // The special days' plan counts posters too.
  return useApiMutation({ mutationFn: createPoster, invalidates: [posterKeys.all, ['planning']] });
}

export function useChangePosterDefNums() {
  return useApiMutation({
    mutationFn: ({ id, ifMatch, ...nums }: DefNums & { id: number } & Change) =>
      api.patch(PATHS.posterDefNums(id), posterMutation, nums, { ifMatch }),
    invalidates: [posterKeys.all],
  });
}

export function useChangePosterDate() {
  return useApiMutation({
    // No date is sent as '' (form bodies carry no null): the server clears it.
    mutationFn: ({ id, ifMatch, date }: { id: number; date: string | null } & Change) =>
      api.patch(PATHS.posterDate(id), posterMutation, { date: date ?? '' }, { ifMatch }),
    invalidates: [posterKeys.all],
  });
}

export function useChangePosterPosition() {
  return useApiMutation({
    mutationFn: ({ id, ifMatch, position }: { id: number; position: Side } & Change) =>
      api.put(PATHS.posterPosition(id), posterMutation, { position }, { ifMatch }),
    invalidates: [posterKeys.all],
  });
}

export function useChangePosterStatus() {
  return useApiMutation({
    mutationFn: ({ id, ifMatch, status }: { id: number; status: Status } & Change) =>
      api.put(PATHS.posterStatus(id), posterMutation, { status }, { ifMatch }),
    invalidates: [posterKeys.all],
  });
}

/** Replaces this row's image (the other apps' rows keep theirs). */
export function useChangePosterImage() {
  return useApiMutation({
    mutationFn: ({
      id,
      ifMatch,
      file,
      onProgress,
    }: { id: number; file: File } & Progress & Change) =>
      api.upload('PUT', PATHS.posterFile(id), posterMutation, { file }, onProgress, { ifMatch }),
    invalidates: [posterKeys.all],
  });
}

export function useChangePosterThumb() {
  return useApiMutation({
    mutationFn: ({
      id,
      ifMatch,
      file,
      onProgress,
    }: { id: number; file: File } & Progress & Change) =>
      api.upload('PUT', PATHS.posterThumb(id), posterMutation, { thumbFile: file }, onProgress, {
        ifMatch,
      }),
    invalidates: [posterKeys.all],
  });
}

export function useDeletePoster() {
  return useApiMutation({
    mutationFn: ({ id, ifMatch }: { id: number } & Change) =>
      api.delete(PATHS.posterRemove(id), deleteResponse, { ifMatch }),
    trash: 'posters',
    invalidates: [posterKeys.all],
  });
}

/** Sets the status of the selected posters (a JSON body: `ids` is a list). */
export function useChangePostersStatus() {
  return useBulkMutation({
    call: (ids: number[], { status }: { status: Status }, versions) =>
      api.json('PUT', PATHS.posterBulkStatus, bulkResponse, { ids, status, ...versions }),
    invalidates: [posterKeys.all],
  });
}

/** Deletes the selected posters. */
export function useDeletePosters() {
  return useBulkMutation({
    call: (ids: number[], _: undefined, versions) =>
      api.json('DELETE', PATHS.posterBulkDelete, bulkResponse, { ids, ...versions }),
    trash: 'posters',
    invalidates: [posterKeys.all],
  });
}
