import { TRASH_AREA_MENUS, type BuiltInMenuName } from '@master-admin/contract';

/** The menus whose DELETE right opens the trash screen (DELETE in any one of them). */
export const TRASH_MENUS: readonly BuiltInMenuName[] = [
  ...new Set(Object.values(TRASH_AREA_MENUS)),
];
