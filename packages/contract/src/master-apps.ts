import { z } from 'zod';
import { listQuery, listResponse, mutationResponse } from './common.ts';
import { text, timestamp } from './fields.ts';

export const masterApp = z.object({ id: z.number().int(), name: z.string(), createdAt: timestamp });
export type MasterApp = z.infer<typeof masterApp>;

export const masterAppBody = z.strictObject({ name: text(100) });
export type MasterAppBody = z.infer<typeof masterAppBody>;

export const masterAppListQuery = listQuery;
export const masterAppList = listResponse(masterApp);
export const masterAppMutation = mutationResponse(masterApp);
