/**
 * The `@lit/context` keys through which `<mcp-connection>` hands its client (and
 * itself) to the kit elements inside it. Elements outside a connection take `.client`.
 */
import { createContext } from '@lit/context';
import type { McpClient } from '../src/index.js';

/** Context carrying the {@link McpClient} of the nearest `<mcp-connection>`. */
export const clientContext = createContext<McpClient | undefined>(Symbol.for('mcp-web-elements.client'));

/** Context carrying the nearest `<mcp-connection>` element itself (its roots, its events). */
export const connectionContext = createContext<
  // McpConnection, named through the tag map that mcp-connection.ts declares rather than imported:
  // that module imports this one, and an import back would make a circle.
  HTMLElementTagNameMap['mcp-connection'] | undefined
>(Symbol.for('mcp-web-elements.connection'));
