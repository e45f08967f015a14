/**
 * How the elements write a number of bytes for people (`48213` → `47.1 KB`).
 * Apart from dom.ts, which every page loads at once: only what loads on
 * demand (the result renderer) and `<mcp-resource-list>`, an entry of its
 * own, write sizes. DOM-free.
 *
 * @module
 */

/** A byte count for people: `48213` → `47.1 KB`. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return `${bytes} bytes`;
  if (bytes < 1024) return `${bytes} byte${bytes === 1 ? '' : 's'}`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}
