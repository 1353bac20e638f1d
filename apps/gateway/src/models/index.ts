export * from '../config/text-models.js';
export * from './catalog.js';
