/**
 * Defaults of the bridge that pages need to know too (the playground's "Local
 * server (stdio)" dialog): no Node imports here.
 *
 * @module
 */

/** Origins allowed when none are given: the demo pages of this repository (`npm start`). */
export const DEFAULT_ALLOWED_ORIGINS: readonly string[] = ['http://127.0.0.1:5173', 'http://localhost:5173'];
