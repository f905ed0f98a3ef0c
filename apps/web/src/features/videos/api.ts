import {
  PATHS,
  VIDEO_SORTS,
  bulkResponse,
  deleteResponse,
  videoCreated,
  videoList,
  videoMutation,
  type Side,
  type Status,
} from '@master-admin/contract';
import { api, type Change, type UploadProgress } from '../../lib/api';
import { useBulkMutation } from '../../lib/bulk';
import { useList } from '../../lib/list';
import { useApiMutation } from '../../lib/mutation';
import type { DefNums } from '../posters/api';

export const videoKeys = { all: ['videos'] as const };
export const VIDEO_FILTERS = ['status', 'masterAppId', 'live'] as const;

export function useVideoList() {
  return useList({
    area: 'video',
    queryKey: videoKeys.all,
    path: PATHS.videoList,
    schema: videoList,
    filters: VIDEO_FILTERS,
    sorts: VIDEO_SORTS,
  });
}

export type VideoCreateValues = DefNums & {
  masterAppId: number;
  /** YYYY-MM-DD, or undefined for none. */
  date?: string | undefined;
  position: Side;
  file: File;
  /** The schedule's ends (instants with their offset), or undefined for open. */
  liveFrom?: string | undefined;
  liveUntil?: string | undefined;
  onProgress?: UploadProgress;
};

export function useChangeVideoSchedule() {
  return useApiMutation({
    mutationFn: ({
      id,
      ifMatch,
      ...window
    }: { id: number; liveFrom: string | null; liveUntil: string | null } & Change) =>
      api.put(PATHS.videoSchedule(id), videoMutation, window, { ifMatch }),
    invalidates: [videoKeys.all],
  });
}

/**
 * Uploads a video for one app (multipart `POST video`). The File goes out as it is, streamed by
 * the browser, so a file of hundreds of megabytes is never held in memory.
 */
export function useCreateVideo() {
  return useApiMutation({
    mutationFn: ({ onProgress, ...fields }: VideoCreateValues) =>
      api.upload('POST', PATHS.videoCreate, videoCreated, fields, onProgress),
    invalidates: [videoKeys.all],
  });
}

export function useChangeVideoDefNums() {
  return useApiMutation({
    mutationFn: ({ id, ifMatch, ...nums }: DefNums & { id: number } & Change) =>
      api.patch(PATHS.videoDefNums(id), videoMutation, nums, { ifMatch }),
    invalidates: [videoKeys.all],
  });
}

export function useChangeVideoDate() {
  return useApiMutation({
    // No date is sent as '' (form bodies carry no null): the server clears it.
    mutationFn: ({ id, ifMatch, date }: { id: number; date: string | null } & Change) =>
      api.patch(PATHS.videoDate(id), videoMutation, { date: date ?? '' }, { ifMatch }),
    invalidates: [videoKeys.all],
  });
}

export function useChangeVideoPosition() {
  return useApiMutation({
    mutationFn: ({ id, ifMatch, position }: { id: number; position: Side } & Change) =>
      api.put(PATHS.videoPosition(id), videoMutation, { position }, { ifMatch }),
    invalidates: [videoKeys.all],
  });
}

export function useChangeVideoStatus() {
  return useApiMutation({
    mutationFn: ({ id, ifMatch, status }: { id: number; status: Status } & Change) =>
      api.put(PATHS.videoStatus(id), videoMutation, { status }, { ifMatch }),
    invalidates: [videoKeys.all],
  });
}

export function useDeleteVideo() {
  return useApiMutation({
    mutationFn: ({ id, ifMatch }: { id: number } & Change) =>
      api.delete(PATHS.videoRemove(id), deleteResponse, { ifMatch }),
    trash: 'videos',
    invalidates: [videoKeys.all],
  });
}

/** Sets the status of the selected videos (a JSON body: `ids` is a list). */
export function useChangeVideosStatus() {
  return useBulkMutation({
    call: (ids: number[], { status }: { status: Status }, versions) =>
      api.json('PUT', PATHS.videoBulkStatus, bulkResponse, { ids, status, ...versions }),
    invalidates: [videoKeys.all],
  });
}

/** Deletes the selected videos. */
export function useDeleteVideos() {
  return useBulkMutation({
    call: (ids: number[], _: undefined, versions) =>
      api.json('DELETE', PATHS.videoRemoveMany, bulkResponse, { ids, ...versions }),
    trash: 'videos',
    invalidates: [videoKeys.all],
  });
}
