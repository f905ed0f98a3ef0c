import { useQuery } from '@tanstack/react-query';
import {
  PATHS,
  PREVIEW_MISSING_HEADER,
  USER_SORTS,
  activityList,
  bulkResponse,
  deleteResponse,
  imageList,
  imageMutation,
  loginHistoryList,
  sessionList,
  user,
  userList,
  userMutation,
  walletList,
  type ImageKind,
  type Side,
  type Status,
  type UserCreateBody,
} from '@master-admin/contract';
import { api, type Change } from '../../lib/api';
import { useBulkMutation } from '../../lib/bulk';
import { useList } from '../../lib/list';
import { useApiMutation } from '../../lib/mutation';
import { defined } from '../../lib/defined';

export const userKeys = {
  all: ['users'] as const,
  one: (id: number) => ['users', 'one', id] as const,
  images: (kind: ImageKind, id: number) => ['users', 'images', kind, id] as const,
  wallet: (id: number) => ['users', 'wallet', id] as const,
  history: (id: number | 'own') => ['login-history', id] as const,
  sessions: (id: number) => ['users', 'sessions', id] as const,
  activities: (id: number) => ['users', 'activities', id] as const,
};
export const USER_FILTERS = ['status', 'masterAppId'] as const;

type Progress = { onProgress?: (percent: number) => void };

export function useUserList() {
  return useList({
    area: 'users',
    queryKey: userKeys.all,
    path: PATHS.userList,
    schema: userList,
    filters: USER_FILTERS,
    sorts: USER_SORTS,
  });
}

export function useUser(id: number | undefined) {
  return useQuery({
    queryKey: userKeys.one(id ?? 0),
    queryFn: () => api.get(PATHS.user(defined(id)), user),
    enabled: id !== undefined,
  });
}

/** Values as the form holds them: strings, '' for none. */
type Fields = Partial<Record<keyof UserCreateBody, string | number | undefined>>;

export function useRegisterUser() {
  return useApiMutation({
    mutationFn: (values: Fields) => api.post(PATHS.userRegister, userMutation, values),
    invalidates: [userKeys.all],
  });
}

export function useEditUser() {
  return useApiMutation({
    mutationFn: ({ id, ifMatch, ...values }: Partial<Fields> & { id: number } & Change) =>
      api.patch(PATHS.userEdit(id), userMutation, values, { ifMatch }),
    invalidates: [userKeys.all],
  });
}

export function useChangeDateLimit() {
  return useApiMutation({
    // No limit is sent as '' (form bodies carry no null): the server clears it.
    mutationFn: ({ id, ifMatch, dateLimit }: { id: number; dateLimit: string | null } & Change) =>
      api.patch(PATHS.userDateLimit(id), userMutation, { dateLimit: dateLimit ?? '' }, { ifMatch }),
    invalidates: [userKeys.all],
  });
}

export function useChangeUserStatus() {
  return useApiMutation({
    mutationFn: ({ id, ifMatch, status }: { id: number; status: Status } & Change) =>
      api.put(PATHS.userStatus(id), userMutation, { status }, { ifMatch }),
    invalidates: [userKeys.all],
  });
}

/** Sets the status of the selected users (a JSON body: `ids` is a list). */
export function useChangeUsersStatus() {
  return useBulkMutation({
    call: (ids: number[], { status }: { status: Status }, versions) =>
      api.json('PUT', PATHS.userBulkStatus, bulkResponse, { ids, status, ...versions }),
    invalidates: [userKeys.all],
  });
}

export function useChangeBanner() {
  return useApiMutation({
    mutationFn: ({
      id,
      ifMatch,
      which,
      file,
      onProgress,
    }: { id: number; which: 'top' | 'bottom'; file: File } & Progress & Change) =>
      api.upload(
        'PUT',
        which === 'top' ? PATHS.userTopBanner(id) : PATHS.userBottomBanner(id),
        userMutation,
        { file },
        onProgress,
        { ifMatch },
      ),
    invalidates: [userKeys.all],
  });
}

export function useDeleteUser() {
  return useApiMutation({
    mutationFn: ({ id, ifMatch }: { id: number } & Change) =>
      api.delete(PATHS.userDelete(id), deleteResponse, { ifMatch }),
    invalidates: [userKeys.all],
  });
}

/** One kind of a user's numbered images, by number; its own page parameters in the URL. */
export function useImageList(kind: ImageKind, accountId: number) {
  return useList({
    queryKey: userKeys.images(kind, accountId),
    path: PATHS.imageList(kind, accountId),
    schema: imageList,
    filters: kind === 'self' ? (['position'] as const) : [],
  });
}

export function useUploadImage(kind: ImageKind, accountId: number) {
  return useApiMutation({
    mutationFn: ({
      file,
      defNum,
      position,
      onProgress,
    }: { file: File; defNum: number; position?: Side } & Progress) =>
      api.upload(
        'POST',
        PATHS.imageCreate(kind, accountId),
        imageMutation,
        { file, defNum, ...(kind === 'self' ? { position } : {}) },
        onProgress,
      ),
    invalidates: [userKeys.images(kind, accountId)],
  });
}

export function useReplaceImage(kind: ImageKind, accountId: number) {
  return useApiMutation({
    mutationFn: ({
      id,
      ifMatch,
      file,
      onProgress,
    }: { id: number; file: File } & Progress & Change) =>
      api.upload('PUT', PATHS.imageFile(kind, id), imageMutation, { file }, onProgress, {
        ifMatch,
      }),
    invalidates: [userKeys.images(kind, accountId)],
  });
}

export function useChangeImageNumber(kind: ImageKind, accountId: number) {
  return useApiMutation({
    mutationFn: ({ id, ifMatch, defNum }: { id: number; defNum: number } & Change) =>
      api.patch(PATHS.imageDefNum(kind, id), imageMutation, { defNum, accountId }, { ifMatch }),
    invalidates: [userKeys.images(kind, accountId)],
  });
}

export function useChangeSelfPosition(accountId: number) {
  return useApiMutation({
    mutationFn: ({ id, ifMatch, position }: { id: number; position: Side } & Change) =>
      api.patch(PATHS.selfPosition(id), imageMutation, { position }, { ifMatch }),
    invalidates: [userKeys.images('self', accountId)],
  });
}

export function useDeleteImage(kind: ImageKind, accountId: number) {
  return useApiMutation({
    mutationFn: ({ id, ifMatch }: { id: number } & Change) =>
      api.delete(PATHS.imageRemove(kind, id), deleteResponse, { ifMatch }),
    invalidates: [userKeys.images(kind, accountId)],
  });
}

export function useWalletList(accountId: number) {
  return useList({
    queryKey: userKeys.wallet(accountId),
    path: PATHS.wallets(accountId),
    schema: walletList,
    prefix: 'w.',
  });
}

/** An account's login history (`own`: the caller's), with its own page parameters. */
export function useLoginHistory(accountId: number | 'own', prefix = '') {
  return useList({
    queryKey: userKeys.history(accountId),
    path: accountId === 'own' ? PATHS.loginHistoryOwn : PATHS.loginHistory(accountId),
    schema: loginHistoryList,
    prefix,
  });
}

/** What a user did in the content app, newest first, with its own page parameters. */
export function useUserActivities(accountId: number) {
  return useList({
    queryKey: userKeys.activities(accountId),
    path: PATHS.userActivities(accountId),
    schema: activityList,
    prefix: 'a.',
  });
}

/** Where a user is signed in to the content app now. */
export function useUserSessions(accountId: number) {
  return useQuery({
    queryKey: userKeys.sessions(accountId),
    queryFn: () => api.get(PATHS.userSessions(accountId), sessionList),
  });
}

/** Ends one of a user's app sessions: its tokens stop working at once. */
export function useEndUserSession(accountId: number) {
  return useApiMutation({
    mutationFn: (id: number) => api.delete(PATHS.userSession(accountId, id), deleteResponse),
    invalidates: [userKeys.sessions(accountId), userKeys.history(accountId)],
  });
}

/** The poster composed for a user: an object URL of the picture, and the slots left empty. */
export function usePosterPreview(posterId: number | undefined, accountId: number | undefined) {
  return useQuery({
    queryKey: ['poster-preview', posterId, accountId],
    enabled: posterId !== undefined && accountId !== undefined,
    queryFn: async () => {
      const { blob, headers } = await api.file(
        PATHS.posterPreview(defined(posterId), defined(accountId)),
      );
      const missing = (headers.get(PREVIEW_MISSING_HEADER) ?? '').split(',').filter(Boolean);
      return { url: URL.createObjectURL(blob), missing: missing as ImageKind[] };
    },
    // Each answer is a new object URL; a stale one is simply asked again.
    staleTime: 0,
    gcTime: 60_000,
  });
}
