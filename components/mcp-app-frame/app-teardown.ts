/**
 * Teardown of an app whose `<mcp-app-frame>` leaves the page (spec: ext-apps
 * "Teardown": the host sends `ui/resource-teardown` and waits for the answer
 * before it unmounts the app). An iframe's document dies the moment the iframe
 * leaves the page, and a custom element hears of its removal only afterwards;
 * so `remove()` first moves the app's iframe, alive (`Element.moveBefore`
 * keeps its document), into a holder out of sight, where the app answers, and
 * only then removes it.
 *
 * @module
 */
import { isRecord } from '../internal/json.js';
import type { AppChannel } from './channel.js';

/** How long an app removed with its frame lives on out of sight to answer the teardown, in ms. */
export const REMOVED_TEARDOWN_WAIT_MS = 1_000;

type Movable = HTMLElement & { moveBefore(node: Node, child: Node | null): void };

/**
 * Where the apps of removed frames finish their teardown: out of sight and out
 * of reach (inert, hidden from assistive technology), removed once empty.
 */
function teardownHolder(): HTMLElement {
  let holder = document.querySelector<HTMLElement>('body > [data-mcp-app-teardown]');
  if (!holder) {
    holder = document.createElement('div');
    holder.dataset.mcpAppTeardown = '';
    holder.inert = true;
    holder.setAttribute('aria-hidden', 'true');
    holder.style.cssText = 'position:fixed;left:-10000px;top:0;width:1px;height:1px;overflow:hidden;pointer-events:none';
    document.body.append(holder);
  }
  return holder;
}

/**
 * Moves `iframe` (still on the page) into the holder and tears its app down
 * there: `ui/resource-teardown` through `channel`, whose answer (and the app's
 * log messages) are the only messages taken from it meanwhile; after the answer
 * or `waitMs`, the channel is closed, the iframe removed and `done` called.
 *
 * @returns `false` when the iframe cannot be moved alive (no `moveBefore`): the caller removes it as usual.
 */
export function handOffForTeardown(iframe: HTMLIFrameElement, channel: AppChannel, done: () => void, waitMs = REMOVED_TEARDOWN_WAIT_MS): boolean {
  if (!iframe.isConnected || typeof (Element.prototype as Partial<Movable>).moveBefore !== 'function') return false;
  const holder = teardownHolder() as Movable;
  try {
    holder.moveBefore(iframe, null);
  } catch {
    // Not movable alive here (another document…).
  }
  if (iframe.parentElement !== holder) {
    if (!holder.childElementCount) holder.remove();
    return false;
  }
  const relay = (event: MessageEvent) => {
    if (event.source !== iframe.contentWindow || event.source === null || !isRecord(event.data)) return;
    // Nothing else runs for an app on its way out.
    const method = event.data.method;
    if (method === undefined || method === 'notifications/message') channel.receive(event.data);
  };
  window.addEventListener('message', relay);
  void channel
    .request('ui/resource-teardown', {}, waitMs)
    .catch(() => undefined)
    .then(() => {
      window.removeEventListener('message', relay);
      channel.close();
      iframe.remove();
      if (!holder.childElementCount) holder.remove();
      done();
    });
  return true;
}
