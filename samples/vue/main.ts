/** The Vue 3 sample: the kit's tags in a template, typed by mcp-web-elements/vue. `?server=<url>` picks the MCP server. */
import { createApp } from 'vue';
import App from './App.vue';

createApp(App, { server: new URLSearchParams(location.search).get('server') ?? 'http://127.0.0.1:3001/mcp' }).mount('#app');
