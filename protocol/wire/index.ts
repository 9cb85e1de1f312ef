// The wire contract: frames, views, signing and error codes.
export * from './errors';
export * from './views';
export * from './frames';
export * from './signing';
export * from './http';
export * from './push';
export * from './job-failure';
