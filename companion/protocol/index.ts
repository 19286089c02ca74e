/** @module The wire protocol shared by the companion and the extension (the extension imports only this folder). */
export * from './version';
export * from './usage';
export * from './ratelimits';
export * from './identity';
export * from './exchange';
export * from './profile';
export * from './live';
export * from './api';
export * from './history';
export * from './analysis';
export * from './tool-names';
export * from './section-names';
export * from './layout';
export * from './pairing';
export * from './text-code';
export * from './exchange-match';
