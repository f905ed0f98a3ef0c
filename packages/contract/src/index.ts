export * from './enums.ts';
export * from './fields.ts';
export * from './common.ts';
export * from './messages.ts';
export * from './paths.ts';
export * from './auth.ts';
export * from './master-apps.ts';
export * from './dashboard.ts';
