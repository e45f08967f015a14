/**
 * The React 19 sample: the kit's tags in JSX, typed by mcp-web-elements/react-jsx;
 * `?wrappers` renders the @lit/react wrappers (mcp-web-elements/react) instead, as a
 * React 18 app would. `?server=<url>` picks the MCP server.
 */
import { createRoot } from 'react-dom/client';
import { App } from './App.js';
import { WrappedApp } from './WrappedApp.js';

const params = new URLSearchParams(location.search);
const server = params.get('server') ?? 'http://127.0.0.1:3001/mcp';
createRoot(document.getElementById('root')!).render(params.has('wrappers') ? <WrappedApp server={server} /> : <App server={server} />);
