/**
 * The `@lit/context` key through which `<mcp-connection>` hands its client to
 * the kit elements inside it. Elements outside a connection take `.client`.
 */
import { createContext } from '@lit/context';
import type { McpClient } from '../src/index.js';

/** Context carrying the {@link McpClient} of the nearest `<mcp-connection>`. */
export const clientContext = createContext<McpClient | undefined>(Symbol.for('mcp-elements.client'));
