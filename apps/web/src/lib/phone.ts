import { useMediaQuery } from '@mantine/hooks';

/** Below this width rows become stacked cards and dialogs fill the screen (Mantine's `sm`). */
export const PHONE_QUERY = '(max-width: 48em)';

/**
 * Whether the screen is a phone's, known at the first render: read in an effect instead, a phone
 * drew every list as a desktop table first and then again as cards (a second full render of the
 * page while it loads).
 */
export function usePhone(): boolean {
  return useMediaQuery(PHONE_QUERY, undefined, { getInitialValueInEffect: false });
}
