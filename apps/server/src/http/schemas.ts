import type { z } from 'zod';
import { errorResponse } from '@master-admin/contract';

/** A route's answers: `schema` on success, the error shape otherwise (validated and documented). */
export function answers<T extends z.ZodType>(schema: T) {
  return { 200: schema, '4xx': errorResponse, '5xx': errorResponse } as const;
}
