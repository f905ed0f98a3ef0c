import { useQuery } from '@tanstack/react-query';
import {
  BLOG_SORTS,
  PATHS,
  blog,
  blogList,
  blogMutation,
  deleteResponse,
  type Status,
} from '@master-admin/contract';
import { api, type Change } from '../../lib/api';
import { useList } from '../../lib/list';
import { useApiMutation } from '../../lib/mutation';
import { defined } from '../../lib/defined';

/** Every blog query starts with this key, so one invalidation refreshes lists and details. */
export const blogKeys = {
  all: ['blogs'] as const,
  detail: (id: number) => [...blogKeys.all, 'detail', id] as const,
};
export const BLOG_FILTERS = ['status'] as const;

export function useBlogList() {
  return useList({
    area: 'blogs',
    queryKey: blogKeys.all,
    path: PATHS.blogList,
    schema: blogList,
    filters: BLOG_FILTERS,
    sorts: BLOG_SORTS,
  });
}

/** One blog, whole (the detail screen); `id` undefined when the address names no blog. */
export function useBlog(id: number | undefined) {
  return useQuery({
    queryKey: blogKeys.detail(id ?? 0),
    queryFn: () => api.get(PATHS.blog(defined(id)), blog),
    enabled: id !== undefined,
  });
}

type Progress = { onProgress?: (percent: number) => void };

export type BlogCreateValues = {
  title: string;
  author: string;
  shortDesc: string;
  desc: string;
  /** YYYY-MM-DD, or undefined for none. */
  date?: string;
  image?: File;
};

/**
 * Creates a blog (multipart, with the optional image). The spec (§4) has the list not take the
 * new row locally: it is read again from the server.
 */
export function useCreateBlog() {
  return useApiMutation({
    mutationFn: ({ image, onProgress, ...fields }: BlogCreateValues & Progress) =>
      api.upload('POST', PATHS.blogCreate, blogMutation, { ...fields, image }, onProgress),
    invalidates: [blogKeys.all],
  });
}

export type BlogUpdateValues = {
  id: number;
  title: string;
  author: string;
  shortDesc: string;
  desc: string;
  /** YYYY-MM-DD, or null to clear the date. */
  date: string | null;
};

export function useUpdateBlog() {
  return useApiMutation({
    // An empty date is sent as '' (form bodies carry no null): the server clears the date.
    mutationFn: ({ id, ifMatch, date, ...fields }: BlogUpdateValues & Change) =>
      api.patch(PATHS.blog(id), blogMutation, { ...fields, date: date ?? '' }, { ifMatch }),
    invalidates: [blogKeys.all],
  });
}

export function useChangeBlogImage() {
  return useApiMutation({
    mutationFn: ({
      id,
      ifMatch,
      file,
      onProgress,
    }: { id: number; file: File } & Progress & Change) =>
      api.upload('PUT', PATHS.blogImage(id), blogMutation, { image: file }, onProgress, {
        ifMatch,
      }),
    invalidates: [blogKeys.all],
  });
}

export function useChangeBlogStatus() {
  return useApiMutation({
    mutationFn: ({ id, ifMatch, status }: { id: number; status: Status } & Change) =>
      api.put(PATHS.blogStatus(id), blogMutation, { status }, { ifMatch }),
    invalidates: [blogKeys.all],
  });
}

export function useChangeBlogPopular() {
  return useApiMutation({
    mutationFn: ({ id, ifMatch, popular }: { id: number; popular: boolean } & Change) =>
      api.put(PATHS.blogPopular(id), blogMutation, { popular }, { ifMatch }),
    invalidates: [blogKeys.all],
  });
}

export function useDeleteBlog(options: { onSuccess?: () => void } = {}) {
  return useApiMutation({
    mutationFn: ({ id, ifMatch }: { id: number } & Change) =>
      api.delete(PATHS.blogRemove(id), deleteResponse, { ifMatch }),
    trash: 'blogs',
    invalidates: [blogKeys.all],
    onSuccess: options.onSuccess,
  });
}
