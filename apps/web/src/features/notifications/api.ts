import {
  NOTIFICATION_SORTS,
  PATHS,
  deleteResponse,
  notificationList,
  notificationMutation,
} from '@master-admin/contract';
import { api, type Change } from '../../lib/api';
import { useList } from '../../lib/list';
import { useApiMutation } from '../../lib/mutation';

export const notificationKeys = { all: ['notifications'] as const };
export const NOTIFICATION_FILTERS = ['masterAppId'] as const;

export function useNotificationList() {
  return useList({
    area: 'notification',
    queryKey: notificationKeys.all,
    path: PATHS.notificationList,
    schema: notificationList,
    filters: NOTIFICATION_FILTERS,
    sorts: NOTIFICATION_SORTS,
  });
}

export type NewNotification = {
  masterAppId: number;
  title: string;
  desc: string;
  type: string;
  /** One user of the app; every user when absent. */
  accountId?: number;
  logo?: File;
  onProgress?: (percent: number) => void;
};

export function useCreateNotification() {
  return useApiMutation({
    mutationFn: ({ onProgress, ...values }: NewNotification) =>
      api.upload('POST', PATHS.notificationCreate, notificationMutation, values, onProgress),
    invalidates: [notificationKeys.all],
  });
}

export function useDeleteNotification() {
  return useApiMutation({
    mutationFn: ({ id, ifMatch }: { id: number } & Change) =>
      api.delete(PATHS.notificationRemove(id), deleteResponse, { ifMatch }),
    trash: 'notifications',
    invalidates: [notificationKeys.all],
  });
}
