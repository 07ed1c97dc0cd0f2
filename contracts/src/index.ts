export * from './envelope.ts';
export * from './constants.ts';
export * from './auth.ts';
export * from './user.ts';
export * from './tenant.ts';
export * from './health.ts';
export * from './auth-flows.ts';
export * from './shell.ts';
