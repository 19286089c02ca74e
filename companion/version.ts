/** @module The companion's version, from package.json at build time. */
import pkg from '../package.json' with { type: 'json' };

export const COMPANION_VERSION: string = pkg.version;
