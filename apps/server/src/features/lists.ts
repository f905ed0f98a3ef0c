/** Every area's list, for the checks, the bench and the operator tool that work on all of them. */
import type { ListSpec } from '../db/lists.ts';
import { BANNERS_LIST } from './banners/routes.ts';
import { BLOGS_LIST } from './blogs/routes.ts';
import { CATEGORIES_LIST } from './categories/routes.ts';
import { CONTACT_US_LIST } from './contact-us/routes.ts';
import { FAQS_LIST } from './faqs/routes.ts';
import { MASTER_APPS_LIST } from './master-apps/routes.ts';
import { NOTIFICATIONS_LIST } from './notifications/routes.ts';
import { PAGES_LIST } from './pages/routes.ts';
import { POSTERS_LIST } from './posters/routes.ts';
import { SETTINGS_LIST } from './settings/routes.ts';
import { SPECIAL_DAYS_LIST } from './special-days/routes.ts';
import { STAFF_LIST } from './staff/routes.ts';
import { VIDEOS_LIST } from './videos/routes.ts';
import { LOGIN_HISTORY_LIST, USERS_LIST, WALLETS_LIST } from './users/routes.ts';
import { USER_IMAGES_LIST } from './users/images.ts';
import { AUDIT_LIST } from './audit/routes.ts';

export const ALL_LISTS: readonly ListSpec[] = [
  MASTER_APPS_LIST,
  BANNERS_LIST,
  BLOGS_LIST,
  PAGES_LIST,
  FAQS_LIST,
  CATEGORIES_LIST,
  SPECIAL_DAYS_LIST,
  CONTACT_US_LIST,
  SETTINGS_LIST,
  NOTIFICATIONS_LIST,
  POSTERS_LIST,
  VIDEOS_LIST,
  USERS_LIST,
  USER_IMAGES_LIST,
  WALLETS_LIST,
  LOGIN_HISTORY_LIST,
  STAFF_LIST,
  AUDIT_LIST,
];
