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
  IconListSearch,
  IconMail,
  IconMovie,
  IconNews,
  IconPhoto,
  IconPhotoStar,
  IconSettings,
  IconTrash,
  IconUserCircle,
  IconUsers,
  IconUsersGroup,
  type Icon,
} from '@tabler/icons-react';

/**
 * A sidebar link. Every account sees the same links (spec §2: the menu is the same for
 * everyone); who may open each screen is the router's business (app/router.tsx).
 */
export type NavItem = {
  label: string;
  to: string;
  icon: Icon;
  /** Left out, not locked, for an account that may not open it (the trash). */
  hiddenWhenDenied?: true;
};

/** The sidebar's links, in the spec's order (§2); Logout follows Account. */
export const MAIN_NAV: NavItem[] = [
  { label: 'Dashboard', to: '/', icon: IconGauge },
  { label: 'Master Apps', to: '/masterApp', icon: IconApps },
  { label: 'Staff List', to: '/staff-details', icon: IconUsersGroup },
  { label: 'Banners', to: '/banner', icon: IconPhoto },
  { label: 'Users List', to: '/users', icon: IconUsers },
  { label: 'Notification', to: '/notification', icon: IconBell },
  { label: 'Category List', to: '/category', icon: IconCategory },
  { label: 'Posters', to: '/poster', icon: IconPhotoStar },
  { label: 'Videos', to: '/video', icon: IconMovie },
  { label: 'Pages', to: '/pages', icon: IconFileText },
  { label: 'Settings', to: '/settings', icon: IconSettings },
  { label: 'Account', to: '/profile', icon: IconUserCircle },
];

/** Areas the spec's sidebar leaves out, listed below it so every area is reachable. */
export const MORE_NAV: NavItem[] = [
  { label: 'Blogs', to: '/blogs', icon: IconNews },
  { label: 'FAQs', to: '/faqs', icon: IconHelpCircle },
  { label: 'Special Days', to: '/special-day', icon: IconCalendarEvent },
  { label: 'Contact Us', to: '/contact-us', icon: IconMail },
  { label: 'Menus', to: '/menus', icon: IconLayoutList },
  { label: 'Trash', to: '/trash', icon: IconTrash, hiddenWhenDenied: true },
  { label: 'Audit Log', to: '/audit-log', icon: IconListSearch },
  { label: 'Login History', to: '/login-history', icon: IconHistory },
];
