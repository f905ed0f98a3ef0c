/** Rules for partial updates (PATCH bodies) and other whole-body checks. */
import type { z } from 'zod';

/**
 * Options for a whole-body refinement: it runs only once every field is valid on its own, so a
 * body with a bad or unknown field is refused naming just that field.
 */
export const onceFieldsValid = {
  when: (payload: z.core.ParsePayload) => payload.issues.length === 0,
};

/**
 * Refuses a body that gives none of `fields` (after empty strings were read as absent), with one
 * issue per field, so every field a form shows is named.
 */
export function atLeastOne<T extends Record<string, unknown>>(
  body: T,
  fields: ReadonlyArray<keyof T & string>,
  ctx: z.RefinementCtx,
): void {
  if (fields.some((field) => body[field] !== undefined)) return;
  const message = `Give at least one of ${fields.join(', ')}`;
  for (const field of fields) ctx.addIssue({ code: 'custom', path: [field], message });
}

/**
 * `atLeastOne` as the API document states it: some field of `fields` given, where a blank string
 * counts as absent except for the fields in `blankGiven` (a blank there means "clear it").
 */
export function atLeastOneDocumented(
  fields: readonly string[],
  blankGiven: readonly string[] = [],
): { minProperties: number; anyOf: object[]; description: string } {
  return {
    // Implied by `anyOf`, and said plainly for the tools that read no further: never empty.
    minProperties: 1,
    anyOf: fields.map((field) =>
      blankGiven.includes(field)
        ? { required: [field] }
        : {
            required: [field],
            not: { properties: { [field]: { type: 'string', pattern: '^\\s*$' } } },
          },
    ),
    description: `Give at least one of ${fields.join(', ')}.`,
  };
}
