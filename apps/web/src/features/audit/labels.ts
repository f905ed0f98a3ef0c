import type { AuditAction, AuditArea } from '@master-admin/contract';

export const AREA_LABELS: Record<AuditArea, string> = {
  auth: 'Sign-in',
  masterApps: 'Master apps',
  banners: 'Banners',
  blogs: 'Blogs',
  pages: 'Pages',
  faqs: 'FAQs',
  categories: 'Categories',
  specialDays: 'Special days',
  settings: 'Settings',
  notifications: 'Notifications',
  posters: 'Posters',
  videos: 'Videos',
  users: 'Users',
  userImages: 'User images',
  staff: 'Staff',
  menus: 'Menus',
};

export const ACTION_LABELS: Record<AuditAction, string> = {
  CREATE: 'Created',
  UPDATE: 'Updated',
  STATUS: 'Status changed',
  FILE: 'File replaced',
  DELETE: 'Deleted',
  PASSWORD: 'Password changed',
  PERMISSIONS: 'Permissions changed',
  SIGN_IN: 'Signed in',
  SIGN_OUT: 'Signed out',
};

export const ACTION_COLORS: Record<AuditAction, string> = {
  CREATE: 'teal',
  UPDATE: 'blue',
  STATUS: 'grape',
  FILE: 'indigo',
  DELETE: 'red',
  PASSWORD: 'orange',
  PERMISSIONS: 'orange',
  SIGN_IN: 'gray',
  SIGN_OUT: 'gray',
};
