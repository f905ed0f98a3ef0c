import {
  IconApps,
  IconBell,
  IconCalendarEvent,
  IconCategory,
  IconFileText,
  IconGauge,
  IconHelpCircle,
  IconHistory,
  IconLayoutList,
  IconMail,
  IconMovie,
  IconNews,
  IconPhoto,
  IconPhotoStar,
  IconSettings,
  IconUserCircle,
  IconUsers,
  IconUsersGroup,
  type Icon,
} from '@tabler/icons-react';

import type { BuiltInMenuName } from '@master-admin/contract';

/**
 * A sidebar link; `menu` is the permission unit whose VIEW it needs (API.md), `superAdmin` marks
 * areas only a SUPER_ADMIN may open, whatever the grants. Without either, every account sees it.
 */
export type NavItem = {
  label: string;
  to: string;
  icon: Icon;
  menu?: BuiltInMenuName;
  superAdmin?: true;
};

/** The sidebar's links, in the spec's order (§2); Logout follows Account. */
export const MAIN_NAV: NavItem[] = [
  { label: 'Dashboard', to: '/', icon: IconGauge, menu: 'dashboard' },
  { label: 'Master Apps', to: '/masterApp', icon: IconApps, menu: 'masterApp' },
  { label: 'Staff List', to: '/staff-details', icon: IconUsersGroup, superAdmin: true },
  { label: 'Banners', to: '/banner', icon: IconPhoto, menu: 'banner' },
  { label: 'Users List', to: '/users', icon: IconUsers, menu: 'users' },
  { label: 'Notification', to: '/notification', icon: IconBell, menu: 'notification' },
  { label: 'Category List', to: '/category', icon: IconCategory, menu: 'category' },
  { label: 'Posters', to: '/poster', icon: IconPhotoStar, menu: 'poster' },
  { label: 'Videos', to: '/video', icon: IconMovie, menu: 'video' },
  { label: 'Pages', to: '/pages', icon: IconFileText, menu: 'pages' },
  { label: 'Settings', to: '/settings', icon: IconSettings, menu: 'settings' },
  { label: 'Account', to: '/profile', icon: IconUserCircle },
];

/** Areas the spec's sidebar leaves out, listed below it so every area is reachable. */
export const MORE_NAV: NavItem[] = [
  { label: 'Blogs', to: '/blogs', icon: IconNews, menu: 'blogs' },
  { label: 'FAQs', to: '/faqs', icon: IconHelpCircle, menu: 'faqs' },
  { label: 'Special Days', to: '/special-day', icon: IconCalendarEvent, menu: 'specialDay' },
  { label: 'Contact Us', to: '/contact-us', icon: IconMail, menu: 'contactUs' },
  { label: 'Menus', to: '/menus', icon: IconLayoutList, superAdmin: true },
  { label: 'Login History', to: '/login-history', icon: IconHistory },
];
