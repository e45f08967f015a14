/**
 * Budgets for what a server may make the elements render, and when a list is
 * too long to render: an `enum` of a million values is a text input checked
 * against the enum with the matching values listed, a page at a time — never a
 * million `<option>`s (the input, its keys and the search: combobox.ts, which
 * loads on demand for a form or request that has such a list). DOM-free.
 *
 * @module
 */

/** Enumerations with more values than this are searched (a text input and a short list of matches) instead of listed. */
export const SEARCH_OVER = 100;
/** Matches listed at once under a search input. */
export const MATCHES_SHOWN = 50;
/** Labels (titles, names, enum labels) are shown up to this many characters. */
export const LABEL_CHARS = 200;
/** Descriptions and hints are shown up to this many characters, with "Show all". */
export const DESCRIPTION_CHARS = 2_000;
/** Values (defaults, constants, JSON) longer than this are previewed, with "Show all", instead of put in a control. */
export const VALUE_CHARS = 20_000;
