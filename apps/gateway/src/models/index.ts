export * from './catalog.js';
export * from './config.js';
