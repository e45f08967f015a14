/**
 * The playground's list of tools the user chose to "Always allow" for apps of a
 * server (`<mcp-app-frame>`'s question), each with a Revoke button: a panel of
 * its own, kept up to date as tools are allowed or revoked in this page.
 */
import { html, render } from 'lit';
import { alwaysAllowedTools, onAlwaysAllowedChange, revokeAlwaysAllowedTool, type AlwaysAllowedTool } from '../../components/index.js';
import { maskUrlSecrets } from '../../src/protocol/errors.js';

/** Creates the panel, fills it and keeps it current; append the returned element where it belongs. */
export function appGrantsPanel(): HTMLElement {
  const panel = document.createElement('section');
  panel.className = 'saved app-grants';
  panel.setAttribute('aria-labelledby', 'app-grants-heading');
  // Hidden while empty: in the sidebar it would only push the tools down.
  const draw = (grants: AlwaysAllowedTool[]) => {
    panel.hidden = grants.length === 0;
    render(
      html`<h2 id="app-grants-heading">Tools always allowed for apps</h2>
        ${grants.length === 0
          ? html`<p class="muted">When an app asks to call a tool, "Always allow this tool for this server" lists it here.</p>`
          : html`<ul class="saved-list">
              ${grants.map(
                (g) => html`<li>
                  <code class="saved-name">${g.tool}</code>
                  <code class="saved-url">${maskUrlSecrets(g.server)}</code>
                  <span class="saved-actions">
                    <button type="button" aria-label="Revoke ${g.tool} on ${maskUrlSecrets(g.server)}" @click=${() => revokeAlwaysAllowedTool(g.server, g.tool)}>Revoke</button>
                  </span>
                </li>`,
              )}
            </ul>`}`,
      panel,
    );
  };
  const refresh = () => void alwaysAllowedTools().then(draw, () => draw([]));
  onAlwaysAllowedChange(refresh);
  refresh();
  return panel;
}
