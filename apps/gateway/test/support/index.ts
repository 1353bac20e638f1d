export * from './databases.js';
export * from './gateway.js';
