/** @module The analysis stage's public entry points, for the store, the REST API and the live feed. */
export { analyzeExchange, cacheBrief, hasRequestBody, previousInChain } from './analyze';
export { contextWindowLookup, contextWindowsFromModels } from './models-metadata';
export { BUILTIN_PRICES } from './prices';
export { sessionCacheReport } from './cache-report';
export { blendedTokens } from './token-math';
export { buildSessionThreads } from './thread-tree';
export { rollupUsage, usageByThread, usageByTurn, usageReport } from './usage-rollup';
export { requestLayout } from './layout';
