import { z } from 'zod';

export const STATUSES = ['ACTIVE', 'DEACTIVE', 'DELETED', 'SUSPENDED', 'PENDING'] as const;
export const Status = z.enum(STATUSES);
export type Status = z.infer<typeof Status>;

export const LINK_TYPES = ['DEFAULT', 'EXTERNAL', 'INTERNAL'] as const;
export const LinkType = z.enum(LINK_TYPES);
export type LinkType = z.infer<typeof LinkType>;

export const LOGIN_DIRECTIONS = ['IN', 'OUT'] as const;
export const LoginDirection = z.enum(LOGIN_DIRECTIONS);
export type LoginDirection = z.infer<typeof LoginDirection>;

export const WALLET_KINDS = ['DEPOSIT', 'WITHDRAW', 'FINED'] as const;
export const WalletKind = z.enum(WALLET_KINDS);
export type WalletKind = z.infer<typeof WalletKind>;

export const ACTIVITIES = [
  'REGISTER',
  'LOGIN',
  'FEEDBACK',
  'LIKE',
  'UNLIKE',
  'COMMENT',
  'DELETE_COMMENT',
  'SPORT',
  'SHARED',
  'POST',
  'DELETE_POST',
  'REPOST',
  'FOLLOW',
  'UNFOLLOW',
] as const;
export const Activity = z.enum(ACTIVITIES);
export type Activity = z.infer<typeof Activity>;

/** The side of a poster on which the user's self photo is placed. */
export const SIDES = ['LEFT', 'RIGHT'] as const;
export const Side = z.enum(SIDES);
export type Side = z.infer<typeof Side>;

export const ROLES = ['SUPER_ADMIN', 'STAFF', 'USER'] as const;
export const Role = z.enum(ROLES);
export type Role = z.infer<typeof Role>;

export const PERMISSION_KINDS = ['VIEW', 'CREATE', 'UPDATE', 'DELETE'] as const;
export const PermissionKind = z.enum(PERMISSION_KINDS);
export type PermissionKind = z.infer<typeof PermissionKind>;

/** The built-in menus (permission units), seeded with these names and titles. */
export const BUILT_IN_MENUS = [
  { name: 'dashboard', title: 'Dashboard' },
  { name: 'masterApp', title: 'Master Apps' },
  { name: 'staff', title: 'Staff' },
  { name: 'banner', title: 'Banners' },
  { name: 'users', title: 'Users' },
  { name: 'notification', title: 'Notifications' },
  { name: 'category', title: 'Categories' },
  { name: 'specialDay', title: 'Special Days' },
  { name: 'poster', title: 'Posters' },
  { name: 'video', title: 'Videos' },
  { name: 'pages', title: 'Pages' },
  { name: 'blogs', title: 'Blogs' },
  { name: 'faqs', title: 'FAQs' },
  { name: 'settings', title: 'Settings' },
  { name: 'contactUs', title: 'Contact Us' },
  { name: 'menus', title: 'Menus' },
] as const;
export type BuiltInMenuName = (typeof BUILT_IN_MENUS)[number]['name'];

/** The pages every master app has, created with the app (API.md, Master apps). */
export const STANDARD_PAGES = ['About Us', 'Privacy Policy', 'Terms and Conditions'] as const;
