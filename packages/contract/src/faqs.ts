import { z } from 'zod';
import { listQuery, listResponse, mutationResponse, sortParam, version } from './common.ts';
import { optionalText, text, timestamp } from './fields.ts';
import { atLeastOne, atLeastOneDocumented, onceFieldsValid } from './partial.ts';

export const FAQ_QUESTION_MAX = 500;
export const FAQ_ANSWER_MAX = 5000;

export const faq = z.object({
  id: z.number().int(),
  version,
  question: z.string(),
  answer: z.string(),
  createdAt: timestamp,
});
export type Faq = z.infer<typeof faq>;

export const faqCreateBody = z.strictObject({
  question: text(FAQ_QUESTION_MAX, { multiline: true }),
  answer: text(FAQ_ANSWER_MAX, { multiline: true }),
});
export type FaqCreateBody = z.input<typeof faqCreateBody>;

/**
 * Any of the fields, at least one; an empty string counts as absent. A body changing nothing is
 * refused naming every field it could have given.
 */
export const faqUpdateBody = z
  .strictObject({
    question: optionalText(FAQ_QUESTION_MAX, { multiline: true }),
    answer: optionalText(FAQ_ANSWER_MAX, { multiline: true }),
  })
  .superRefine((body, ctx) => atLeastOne(body, ['question', 'answer'], ctx), onceFieldsValid)
  .meta(atLeastOneDocumented(['question', 'answer']));
export type FaqUpdateBody = z.input<typeof faqUpdateBody>;

export const FAQ_SORTS = ['createdAt', 'question'] as const;
export const faqListQuery = listQuery.extend({ sort: sortParam(FAQ_SORTS) });
export type FaqListQuery = z.input<typeof faqListQuery>;

export const faqList = listResponse(faq);
export const faqMutation = mutationResponse(faq);
