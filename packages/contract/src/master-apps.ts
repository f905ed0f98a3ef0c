import { z } from 'zod';
import { listQuery, listResponse, mutationResponse, sortParam, version } from './common.ts';
import { text, timestamp } from './fields.ts';

export const masterApp = z.object({
  id: z.number().int(),
  version,
  name: z.string(),
  createdAt: timestamp,
});
export type MasterApp = z.infer<typeof masterApp>;

export const masterAppBody = z.strictObject({ name: text(100) });
export type MasterAppBody = z.infer<typeof masterAppBody>;

export const MASTER_APP_SORTS = ['createdAt', 'name'] as const;
export const masterAppListQuery = listQuery.extend({ sort: sortParam(MASTER_APP_SORTS) });
export const masterAppList = listResponse(masterApp);
export const masterAppMutation = mutationResponse(masterApp);
