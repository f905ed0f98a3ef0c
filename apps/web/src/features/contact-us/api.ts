import { CONTACT_US_SORTS, PATHS, contactUsList } from '@master-admin/contract';
import { useList } from '../../lib/list';

export const contactUsKeys = { all: ['contact-us'] as const };

/** Enquiries sent from the content app's public form; the back office only reads them. */
export function useContactUsList() {
  return useList({
    queryKey: contactUsKeys.all,
    path: PATHS.contactList,
    schema: contactUsList,
    sorts: CONTACT_US_SORTS,
  });
}
