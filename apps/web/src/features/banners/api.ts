import type { z } from 'zod';
import {
  PATHS,
  BANNER_SORTS,
  bannerLinkBody,
  bannerList,
  bannerMutation,
  deleteResponse,
  type LinkType,
  type Status,
} from '@master-admin/contract';
import { api, type Change } from '../../lib/api';
import { useList } from '../../lib/list';
import { useApiMutation } from '../../lib/mutation';

export const bannerKeys = { all: ['banners'] as const };
export const BANNER_FILTERS = ['status', 'linkType', 'masterAppId', 'live'] as const;

export function useBannerList() {
  return useList({
    area: 'banner',
    queryKey: bannerKeys.all,
    path: PATHS.bannerList,
    schema: bannerList,
    filters: BANNER_FILTERS,
    sorts: BANNER_SORTS,
  });
}

type Progress = { onProgress?: (percent: number) => void };

export function useCreateBanner() {
  return useApiMutation({
    mutationFn: ({
      masterAppId,
      file,
      link,
      linkType,
      liveFrom,
      liveUntil,
      onProgress,
    }: {
      masterAppId: number;
      file: File;
      link?: string;
      linkType: LinkType;
      /** The schedule's ends (instants with their offset), or undefined for open. */
      liveFrom?: string | undefined;
      liveUntil?: string | undefined;
    } & Progress) =>
      api.upload(
        'POST',
        PATHS.bannerCreate(masterAppId),
        bannerMutation,
        { file, link, linkType, liveFrom, liveUntil },
        onProgress,
      ),
    invalidates: [bannerKeys.all],
  });
}

export function useChangeBannerSchedule() {
  return useApiMutation({
    mutationFn: ({
      id,
      ifMatch,
      ...window
    }: { id: number; liveFrom: string | null; liveUntil: string | null } & Change) =>
      api.put(PATHS.bannerSchedule(id), bannerMutation, window, { ifMatch }),
    invalidates: [bannerKeys.all],
  });
}

export function useChangeBannerLink() {
  return useApiMutation({
    mutationFn: ({
      id,
      ifMatch,
      link,
      linkType,
    }: z.output<typeof bannerLinkBody> & { id: number } & Change) =>
      api.put(PATHS.bannerLink(id), bannerMutation, { link: link ?? '', linkType }, { ifMatch }),
    invalidates: [bannerKeys.all],
  });
}

export function useChangeBannerStatus() {
  return useApiMutation({
    mutationFn: ({ id, ifMatch, status }: { id: number; status: Status } & Change) =>
      api.put(PATHS.bannerStatus(id), bannerMutation, { status }, { ifMatch }),
    invalidates: [bannerKeys.all],
  });
}

export function useChangeBannerImage() {
  return useApiMutation({
    mutationFn: ({
      id,
      ifMatch,
      file,
      onProgress,
    }: { id: number; file: File } & Progress & Change) =>
      api.upload('PUT', PATHS.bannerImage(id), bannerMutation, { file }, onProgress, { ifMatch }),
    invalidates: [bannerKeys.all],
  });
}

export function useDeleteBanner() {
  return useApiMutation({
    mutationFn: ({ id, ifMatch }: { id: number } & Change) =>
      api.delete(PATHS.bannerRemove(id), deleteResponse, { ifMatch }),
    trash: 'banners',
    invalidates: [bannerKeys.all],
  });
}
