import {
  SETTINGS_SORTS,
  PATHS,
  SETTINGS_DOMAIN_FIELDS,
  settingsList,
  settingsMutation,
  type Settings,
} from '@master-admin/contract';
import { api, type Change, request } from '../../lib/api';
import { useList } from '../../lib/list';
import { useApiMutation } from '../../lib/mutation';

export const settingsKeys = { all: ['settings'] as const };
export const SETTINGS_FILTERS = ['masterAppId'] as const;

export type Domains = Partial<Record<(typeof SETTINGS_DOMAIN_FIELDS)[number], string>>;
type Progress = { onProgress?: (percent: number) => void };

export function useSettingsList() {
  return useList({
    area: 'settings',
    queryKey: settingsKeys.all,
    path: PATHS.settingsList,
    schema: settingsList,
    filters: SETTINGS_FILTERS,
    sorts: SETTINGS_SORTS,
  });
}

export function useCreateSettings() {
  return useApiMutation({
    mutationFn: ({
      masterAppId,
      logo,
      title,
      onProgress,
      ...domains
    }: { masterAppId: number; logo: File; title: string } & Domains & Progress) =>
      api.upload(
        'POST',
        PATHS.settingsCreate(masterAppId),
        settingsMutation,
        { logo, title, ...domains },
        onProgress,
      ),
    invalidates: [settingsKeys.all],
  });
}

/**
 * Title and domains. A form-encoded empty field keeps its value on the server, so a domain that
 * was emptied is cleared the one way the API offers: a JSON `null` (API.md, Settings).
 */
export function useUpdateSettings() {
  return useApiMutation({
    mutationFn: ({
      row,
      title,
      ifMatch,
      ...domains
    }: { row: Settings; title: string } & Domains & Change) => {
      const cleared = SETTINGS_DOMAIN_FIELDS.some((f) => !domains[f] && row[f]);
      const url = PATHS.settingsUpdate(row.id);
      if (!cleared) return api.put(url, settingsMutation, { title, ...domains }, { ifMatch });
      const data = Object.fromEntries(SETTINGS_DOMAIN_FIELDS.map((f) => [f, domains[f] || null]));
      return request(settingsMutation, { method: 'PUT', url, body: { title, ...data }, ifMatch });
    },
    invalidates: [settingsKeys.all],
  });
}

export function useChangeLogo() {
  return useApiMutation({
    mutationFn: ({
      id,
      ifMatch,
      logo,
      onProgress,
    }: { id: number; logo: File } & Progress & Change) =>
      api.upload('PUT', PATHS.settingsUpdate(id), settingsMutation, { logo }, onProgress, {
        ifMatch,
      }),
    invalidates: [settingsKeys.all],
  });
}
