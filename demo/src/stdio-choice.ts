/**
 * The playground's "Local server (stdio)" choice: a page cannot start programs,
 * so this explains the one command that serves a stdio server through the
 * kit's bridge (`npx mcp-web-elements bridge`), and takes the URL it prints, token
 * included. `npm start` runs such a bridge and passes its URL in
 * VITE_MCP_BRIDGE_URL: then the button says so and connects to it at once (in
 * a new connection tab), and its token is never shown.
 */
import { html, nothing, render } from 'lit';
import { DEFAULT_ALLOWED_ORIGINS } from '../../bridge/defaults.js';
import './stdio-choice.css';

const EXAMPLE_SERVER = 'npx -y @modelcontextprotocol/server-everything stdio';

/** Why a pasted URL cannot be a bridge URL, if it cannot. */
function problemWith(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'That is not a URL. Paste the whole line the bridge printed, starting with http://';
  }
  if (url.protocol !== 'http:' || !['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) return 'The bridge listens on this machine: its URL starts with http://127.0.0.1 or http://localhost.';
  if (!url.searchParams.get('token')) return 'This URL has no ?token=…; the bridge refuses requests without its token. Paste the URL exactly as it was printed.';
  return undefined;
}

/** The bridge `npm start` started for this page (with its token), if any. */
export function startedBridgeUrl(): string | undefined {
  return (import.meta.env.VITE_MCP_BRIDGE_URL as string | undefined) || undefined;
}

/**
 * Adds the choice to the page: a button (`#stdio-choice`) connects to the
 * bridge `npm start` started, or else opens a dialog with the command that
 * starts one; a valid URL is handed to `connect`.
 */
export function setupStdioChoice(button: HTMLButtonElement, connect: (url: string) => void): void {
  const started = startedBridgeUrl();
  if (started) {
    button.textContent = 'Local server (stdio): open the bridge npm start runs';
    button.title = 'server-everything over stdio, through the kit\'s bridge, in a new connection tab';
    button.addEventListener('click', () => connect(started));
    return;
  }
  const dialog = document.createElement('dialog');
  dialog.className = 'stdio-choice';
  dialog.setAttribute('aria-labelledby', 'stdio-choice-heading');
  document.body.append(dialog);
  const allowOrigin = DEFAULT_ALLOWED_ORIGINS.includes(location.origin) ? '' : ` --allow-origin ${location.origin}`;
  // `-y`: the published package (the name is the kit's own on the npm registry); in a checkout or a project that depends on the kit, npx runs the installed one.
  const command = `npx -y mcp-web-elements bridge${allowOrigin} -- ${EXAMPLE_SERVER}`;
  let problem: string | undefined;

  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    const input = (event.target as HTMLFormElement).elements.namedItem('bridge-url') as HTMLInputElement;
    problem = problemWith(input.value.trim());
    if (problem) return draw();
    dialog.close();
    connect(input.value.trim());
  };

  const draw = () =>
    render(
      html`<form method="dialog" @submit=${submit}>
        <h2 id="stdio-choice-heading">Local server (stdio)</h2>
        <p>A page cannot start programs. Run your stdio server through the kit's bridge in a terminal, its command after <code>--</code>:</p>
        <pre><code>${command}</code></pre>
        <p class="muted">The bridge prints a URL with a one-time token. It only answers this machine, this page's origin and that token.</p>
        <label for="bridge-url">Bridge URL</label>
        <input
          id="bridge-url"
          name="bridge-url"
          type="url"
          required
          placeholder="http://127.0.0.1:PORT/mcp?token=…"
          aria-describedby=${problem ? 'bridge-url-problem' : nothing}
          aria-invalid=${problem ? 'true' : 'false'}
        />
        ${problem ? html`<p id="bridge-url-problem" role="alert">${problem}</p>` : nothing}
        <div class="actions">
          <button type="button" @click=${() => dialog.close()}>Cancel</button>
          <button class="primary" type="submit">Connect</button>
        </div>
      </form>`,
      dialog,
    );

  draw();
  button.addEventListener('click', () => {
    problem = undefined;
    draw();
    dialog.showModal();
  });
}
