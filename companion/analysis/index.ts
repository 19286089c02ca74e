/** @module The analysis stage's public entry points, for the store, the REST API and the live feed. */
export {
  analyzeExchange,
  cacheBrief,
  exchangeFacts,
  isSameChain,
  previousInChain,
  DEFAULT_ANALYSIS_OPTIONS,
  type AnalysisOptions,
} from './analyze';
export { contextWindowLookup, contextWindowsFromModels } from './models-metadata';
export { BUILTIN_PRICES } from './prices';
export { costOf, findPrice, mergePriceOverrides, normalizeModel, normalizeTier, type MergedPrices } from './pricing';
export { sessionCacheReport } from './cache-report';
export { buildSessionThreads } from './thread-tree';
export { addSummary, emptyRollup, rollupUsage, sumRollups, usageByThread, usageByTurn, usageReport } from './usage-rollup';
export { diffExchanges } from './diff';
export { contextBreakdown } from './context';
export { spawnLinks } from './spawn-links';
export { blendedTokens, hitRate, uncachedInput } from './token-math';
