/** The Svelte 5 sample: the kit's tags in markup, typed by mcp-web-elements/svelte. `?server=<url>` picks the MCP server. */
import { mount } from 'svelte';
import App from './App.svelte';

mount(App, { target: document.getElementById('app')!, props: { server: new URLSearchParams(location.search).get('server') ?? 'http://127.0.0.1:3001/mcp' } });
