/**
 * The chat sample's settings: the OpenAI-compatible endpoint the chat talks to
 * (base URL, API key, model) and the servers beside the demo server.
 *
 * The key is kept in sessionStorage (gone when the tab closes) unless the user
 * ticks "Remember on this device", which keeps it in localStorage; unticking
 * removes it from there. Extra servers are kept for the session only: a
 * bridge's URL carries its token.
 */
import { html, nothing, render } from 'lit';
import { startedBridgeUrl } from './stdio-choice.js';

/** The endpoint settings. */
export interface ModelSettings {
  baseUrl: string;
  apiKey: string;
  model: string;
  /** Kept in localStorage (else sessionStorage). */
  remember: boolean;
}

/** A server of the chat as the panel lists it. */
export interface ServerRow {
  key: string;
  /** Compared only (the local stdio server's button goes once it is added); never shown: a bridge's URL carries its token. */
  url: string;
  label: string;
  /** The demo server cannot be removed. */
  removable: boolean;
  enabled: boolean;
  /** Connected, connecting, failed… */
  status: string;
}

const MODEL_KEY = 'mcp-chat-model-v1';
const SERVERS_KEY = 'mcp-chat-servers-v1';

function read(storage: Storage, key: string): unknown {
  try {
    const text = storage.getItem(key);
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

/** The saved endpoint settings (this tab's first, then this device's), if any. */
export function loadModelSettings(): ModelSettings | undefined {
  const saved = (read(sessionStorage, MODEL_KEY) ?? read(localStorage, MODEL_KEY)) as Partial<ModelSettings> | undefined;
  if (!saved || typeof saved.baseUrl !== 'string' || !saved.baseUrl || typeof saved.model !== 'string') return undefined;
  return { baseUrl: saved.baseUrl, apiKey: typeof saved.apiKey === 'string' ? saved.apiKey : '', model: saved.model, remember: saved.remember === true };
}

/** Saves the settings (undefined: forgets them, in both storages). */
export function saveModelSettings(settings: ModelSettings | undefined): void {
  try {
    localStorage.removeItem(MODEL_KEY);
    sessionStorage.removeItem(MODEL_KEY);
    if (settings) (settings.remember ? localStorage : sessionStorage).setItem(MODEL_KEY, JSON.stringify(settings));
  } catch {
    // Storage unavailable (a private window's quota): the settings last as long as the page.
  }
}

/** The extra servers' URLs of this session. */
export function loadServerUrls(): string[] {
  const saved = read(sessionStorage, SERVERS_KEY);
  return Array.isArray(saved) ? saved.filter((url): url is string => typeof url === 'string').slice(0, 10) : [];
}

export function saveServerUrls(urls: readonly string[]): void {
  try {
    sessionStorage.setItem(SERVERS_KEY, JSON.stringify(urls));
  } catch {
    // As above.
  }
}

/** Why `text` cannot be a server URL, if it cannot. */
export function serverUrlProblem(text: string): string | undefined {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? undefined : 'A server URL starts with http:// or https://.';
  } catch {
    return 'That is not a URL.';
  }
}

/** Why `settings` cannot be used, if they cannot: an endpoint needs a model name (there is no default to fall back on). */
export function modelSettingsProblem(settings: ModelSettings | undefined): string | undefined {
  return settings && !settings.model ? 'Name the model the endpoint should use (for example gpt-4.1-mini): the endpoint has no default.' : undefined;
}

/** What the panel calls back. */
export interface SettingsActions {
  saveModel(settings: ModelSettings | undefined): void;
  addServer(url: string): string | undefined;
  removeServer(key: string): void;
  setEnabled(key: string, enabled: boolean): void;
}

/** The panel's state as the page gives it to {@link renderSettings}. */
export interface SettingsView {
  model: ModelSettings | undefined;
  servers: readonly ServerRow[];
  /** A problem with the last URL added. */
  serverProblem?: string;
  /** A problem with the model settings last saved (they were not saved). */
  modelProblem?: string;
}

/** The settings panel (a disclosure above the conversation). */
export function renderSettings(container: HTMLElement, view: SettingsView, actions: SettingsActions): void {
  const onModel = (event: SubmitEvent) => {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const value = (name: string) => (form.elements.namedItem(name) as HTMLInputElement).value.trim();
    const baseUrl = value('model-base');
    if (!baseUrl) return actions.saveModel(undefined);
    actions.saveModel({ baseUrl, apiKey: value('model-key'), model: value('model-name'), remember: (form.elements.namedItem('model-remember') as HTMLInputElement).checked });
  };
  const onClear = (event: Event) => {
    const form = (event.target as HTMLElement).closest('form')!;
    form.reset();
    actions.saveModel(undefined);
  };
  const onAdd = (event: SubmitEvent) => {
    event.preventDefault();
    const input = (event.target as HTMLFormElement).elements.namedItem('server-url') as HTMLInputElement;
    if (!actions.addServer(input.value.trim())) input.value = '';
  };
  const bridge = startedBridgeUrl();
  const model = view.model;
  render(
    html`<details class="settings">
      <summary>Settings · ${model ? (model.model ? `model ${model.model}` : 'model not named: nothing is sent') : 'no model: the phrase router answers'} · ${view.servers.length} server${view.servers.length === 1 ? '' : 's'}</summary>
      <form class="model-settings" @submit=${onModel} aria-labelledby="model-settings-heading">
        <h2 id="model-settings-heading">Model (OpenAI-compatible endpoint)</h2>
        <p class="muted">With no base URL the chat answers with its phrase router. The key is sent only to this endpoint.</p>
        <label for="model-base">Base URL</label>
        <input id="model-base" name="model-base" type="url" placeholder="https://api.openai.com/v1" .value=${model?.baseUrl ?? ''} />
        <label for="model-key">API key</label>
        <input id="model-key" name="model-key" type="password" autocomplete="off" .value=${model?.apiKey ?? ''} />
        <label for="model-name">Model</label>
        <input id="model-name" name="model-name" placeholder="e.g. gpt-4.1-mini" .value=${model?.model ?? ''}
          aria-invalid=${view.modelProblem ? 'true' : 'false'} aria-describedby=${view.modelProblem ? 'model-name-problem' : nothing} />
        ${view.modelProblem ? html`<p id="model-name-problem" role="alert">${view.modelProblem}</p>` : nothing}
        <label class="check"><input name="model-remember" type="checkbox" .checked=${model?.remember ?? false} /> Remember on this device (else only for this tab)</label>
        <div class="actions">
          <button type="button" @click=${onClear}>Use no model</button>
          <button class="primary" type="submit">Save model</button>
        </div>
      </form>
      <section class="server-settings" aria-labelledby="server-settings-heading">
        <h2 id="server-settings-heading">Servers</h2>
        <ul>
          ${view.servers.map(
            (server) => html`<li>
              <label class="check"><input type="checkbox" .checked=${server.enabled} @change=${(e: Event) => actions.setEnabled(server.key, (e.target as HTMLInputElement).checked)} />
                <span class="server-label">${server.label}</span></label>
              <span class="muted">${server.status}</span>
              ${server.removable ? html`<button type="button" aria-label=${`Remove ${server.label}`} @click=${() => actions.removeServer(server.key)}>Remove</button>` : nothing}
            </li>`,
          )}
        </ul>
        <form class="add-server" @submit=${onAdd}>
          <label for="server-url">Server URL</label>
          <input id="server-url" name="server-url" type="url" required placeholder="https://example.com/mcp"
            aria-invalid=${view.serverProblem ? 'true' : 'false'} aria-describedby=${view.serverProblem ? 'server-url-problem' : nothing} />
          <button type="submit">Add server</button>
          ${view.serverProblem ? html`<p id="server-url-problem" role="alert">${view.serverProblem}</p>` : nothing}
        </form>
        ${bridge && !view.servers.some((server) => server.url === bridge) ? html`<button type="button" @click=${() => actions.addServer(bridge)}>Add the local stdio server (server-everything behind the bridge npm start runs)</button>` : nothing}
      </section>
    </details>`,
    container,
  );
}
